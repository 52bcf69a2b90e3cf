/**
 * Typed API errors and the one way every route answers them:
 * `{ "error": { "code", "message" } }` with a matching HTTP status.
 */

import { ZodError } from "zod";
import { bearerToken, resolveCaller } from "@/lib/auth/caller";
import { AuthError, unauthenticated } from "@/lib/auth/errors";
import { withDb } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import { VfsError, vfsErrorAnswer } from "@/lib/vfs/errors";

/** An error a route raises itself (a bad query, a missing id): {@link StrataError} with the route's words. */
export class ApiError extends StrataError {
  constructor(status: number, code: string, message: string) {
    super(status, code, message);
    this.name = "ApiError";
  }
}

export const notFound = (what: string) => new ApiError(404, "not_found", `${what} not found`);
export const badRequest = (message: string) => new ApiError(400, "bad_request", message);

/**
 * Map any thrown value to a JSON error response `{ "error": { code, message, ...details } }`: a `StrataError` (every
 * layer's errors extend it) with its status, code, details and headers; a zod error 400 `bad_request` naming each
 * field; a VFS error as `vfsErrorAnswer` says; anything else 500 `internal`, logged (never secrets). A 5xx
 * `StrataError` with a `cause` logs the cause.
 */
export function errorResponse(error: unknown): Response {
  if (error instanceof StrataError) {
    if (error.status >= 500 && error.cause !== undefined) logUnexpected(error.cause);
    const body = { code: error.code, message: error.message, ...error.details };
    return Response.json({ error: body }, { status: error.status, headers: error.headers });
  }
  if (error instanceof ZodError) {
    const message = error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    return Response.json({ error: { code: "bad_request", message } }, { status: 400 });
  }
  if (error instanceof VfsError) {
    const { status, code } = vfsErrorAnswer(error);
    return Response.json({ error: { code, message: error.message } }, { status });
  }
  logUnexpected(error);
  return Response.json({ error: { code: "internal", message: "Internal error" } }, { status: 500 });
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
