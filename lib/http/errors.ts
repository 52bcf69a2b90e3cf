/**
 * Typed API errors and the one way every route answers them:
 * `{ "error": { "code", "message" } }` with a matching HTTP status.
 */

import { ZodError } from "zod";
import { COMPACTION_CANCELLED, NoModelError, SummarizationError } from "@/lib/agent-session/compaction-run";
import { NotQueueableError } from "@/lib/agent-session/prompt-admission";
import { SessionUnavailableError } from "@/lib/agent-session/session-runtime";
import { EntryNotFoundError, SessionNotFoundError } from "@/lib/agent-session/session-tree";
import { bearerToken, resolveCaller } from "@/lib/auth/caller";
import { AuthError, unauthenticated } from "@/lib/auth/errors";
import { CheckpointError } from "@/lib/checkpoints/errors";
import { withDb } from "@/lib/db/client";
import { DbBusyError, DbUnavailableError } from "@/lib/db/errors";
import { ContextPreviewError } from "@/lib/inspector/context-preview";
import { RemoteError } from "@/lib/remote/errors";
import { RulesError } from "@/lib/rules/errors";
import { SecretsError } from "@/lib/secrets/crypto";
import { InvalidSessionFileError } from "@/lib/session/jsonl";
import { RunActiveError, RunSessionNotFoundError } from "@/lib/session/runs";
import { SessionUploadError } from "@/lib/session/session-upload";
import { CompactionPendingError, LeafMovedError } from "@/lib/session/store";
import { ShareError } from "@/lib/share/errors";
import { PathEscapeError, VfsConflictError, VfsError } from "@/lib/vfs/errors";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);
export const badRequest = (message: string) => new ApiError(400, "bad_request", message);

/** Map any thrown value to a JSON error response; unexpected errors are logged (never secrets) and answered 500. */
export function errorResponse(error: unknown): Response {
  let status = 500;
  let code = "internal";
  let message = "Internal error";
  let headers: Record<string, string> | undefined;
  if (error instanceof RemoteError) {
    // Push, pull, archive: the texts are already masked (lib/remote/errors.ts); `paths` names refused files.
    const body = { code: error.code, message: error.message, ...(error.paths ? { paths: error.paths } : {}) };
    return Response.json({ error: body }, { status: error.status });
  }
  if (error instanceof ApiError) {
    ({ status, code, message } = error);
  } else if (error instanceof RulesError || error instanceof CheckpointError || error instanceof ShareError) {
    ({ status, code, message } = error);
    // A ShareError 500 wraps an unexpected failure (publish / fork, nothing stored): log what it was.
    if (status >= 500 && error.cause !== undefined) logUnexpected(error.cause);
  } else if (error instanceof AuthError) {
    ({ status, code, message } = error);
    if (error.retryAfter !== undefined) headers = { "retry-after": String(error.retryAfter) };
  } else if (error instanceof DbBusyError || error instanceof DbUnavailableError) {
    // No connection in time / the database unreachable: the client may retry, nothing was changed.
    status = 503;
    code = error instanceof DbBusyError ? "database_busy" : "database_unavailable";
    message = error.message;
    headers = { "retry-after": String(error.retryAfterSeconds) };
  } else if (error instanceof ContextPreviewError) {
    status = 400;
    code = "preview_failed";
    message = error.message;
  } else if (error instanceof SecretsError) {
    ({ status, code, message } = error);
  } else if (error instanceof NotQueueableError) {
    status = 400;
    code = "not_queueable";
    message = error.message;
  } else if (error instanceof ZodError) {
    status = 400;
    code = "bad_request";
    message = error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
  } else if (error instanceof PathEscapeError) {
    status = 400;
    code = "path_escape";
    message = error.message;
  } else if (error instanceof VfsConflictError || error instanceof LeafMovedError) {
    status = 409;
    code = "conflict";
    message = error.message;
  } else if (error instanceof SessionUploadError) {
    status = error.status;
    code = error.code;
    message = error.message;
  } else if (error instanceof InvalidSessionFileError) {
    status = 400;
    code = "invalid_session_file";
    message = error.message;
  } else if (
    error instanceof EntryNotFoundError ||
    error instanceof SessionNotFoundError ||
    error instanceof SessionUnavailableError ||
    error instanceof RunSessionNotFoundError
  ) {
    status = 404;
    code = "not_found";
    message = error.message;
  } else if (error instanceof RunActiveError) {
    status = 409;
    code =
      error.kind === "compaction" ? "compacting" : error.kind === "prompt" ? "run_active" : "session_busy";
    message = error.message;
  } else if (error instanceof CompactionPendingError) {
    status = 409;
    code = "compaction_pending";
    message = error.message;
  } else if (error instanceof NoModelError) {
    status = 400;
    code = "no_model";
    message = error.message;
  } else if (error instanceof SummarizationError) {
    const cancelled = error.message === COMPACTION_CANCELLED;
    status = cancelled ? 409 : 502;
    code = cancelled ? "cancelled" : "summarization_failed";
    message = error.message;
  } else if (error instanceof VfsError) {
    status = error.code === "ENOENT" ? 404 : error.code === "EFBIG" ? 413 : 400;
    code = error.code.toLowerCase();
    message = error.message;
  } else {
    logUnexpected(error);
  }
  return Response.json({ error: { code, message } }, { status, headers });
}

/** Log an unexpected error (its stack; never a request body or a secret). */
function logUnexpected(error: unknown): void {
  console.error(
    "[strata] unexpected error:",
    error instanceof Error ? (error.stack ?? error.message) : error,
  );
}

/** A request input the handler refused (a bad body, a bad field, a body too large or of the wrong type). */
function isInputError(error: unknown): boolean {
  return error instanceof ZodError || (error instanceof ApiError && [400, 413, 415].includes(error.status));
}

/**
 * What a non-GET request whose input was refused answers when nobody is signed in: the 401 its authorisation
 * would have given (the caller's `AuthError` — none, or an invalid token), so an anonymous caller learns
 * "sign in" before anything about the route's input. Undefined when there is a caller (or it cannot be told).
 */
async function unauthenticatedInstead(request: Request): Promise<AuthError | undefined> {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  if (!request.headers.get("cookie") && !bearerToken(request)) return unauthenticated();
  try {
    return (await withDb((scope) => resolveCaller(scope, request))) ? undefined : unauthenticated();
  } catch (error) {
    return error instanceof AuthError ? error : undefined;
  }
}

/**
 * Wrap a handler so every error becomes `errorResponse`. A handler reads its body before it authorises (so no
 * database connection is held while a client sends it); when that input is refused and the request has no
 * caller, the answer is the 401 of {@link unauthenticatedInstead}, as every route answers an anonymous caller.
 * (Every non-GET route wrapped here needs a caller; a public one that reads a body must not use `route`.)
 */
export function route<A extends unknown[]>(handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      const request = args[0];
      if (request instanceof Request && isInputError(error))
        return errorResponse((await unauthenticatedInstead(request)) ?? error);
      return errorResponse(error);
    }
  };
}
