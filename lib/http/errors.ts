/**
 * Typed API errors and the one way every route answers them:
 * `{ "error": { "code", "message" } }` with a matching HTTP status.
 */
import { ZodError } from "zod";
import { LeafMovedError } from "@/lib/session/store";
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
  if (error instanceof ApiError) ({ status, code, message } = error);
  else if (error instanceof ZodError) {
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
  } else if (error instanceof VfsError) {
    status = error.code === "ENOENT" ? 404 : error.code === "EFBIG" ? 413 : 400;
    code = error.code.toLowerCase();
    message = error.message;
  } else {
    console.error(
      "[strata] unexpected error:",
      error instanceof Error ? (error.stack ?? error.message) : error,
    );
  }
  return Response.json({ error: { code, message } }, { status });
}

/** Wrap a handler so every error becomes `errorResponse`. */
export function route<A extends unknown[]>(handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
