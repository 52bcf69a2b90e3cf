/**
 * What the authorisation layer refuses with. `lib/http/errors.ts` answers each with its status and
 * `{ error: { code, message } }`; a 429 also carries `Retry-After`.
 */

import { StrataError } from "@/lib/errors/strata-error";

export class AuthError extends StrataError {
  declare readonly status: 401 | 403 | 404 | 429;
  constructor(
    status: 401 | 403 | 404 | 429,
    code: string,
    message: string,
    /** Seconds until a rate-limited caller may try again (429 only). */
    readonly retryAfter?: number,
  ) {
    super(
      status,
      code,
      message,
      retryAfter === undefined ? {} : { headers: { "retry-after": String(retryAfter) } },
    );
    this.name = "AuthError";
  }
}

/** 401: no valid cookie or token. */
export const unauthenticated = () =>
  new AuthError(
    401,
    "unauthenticated",
    "Sign in to continue (or send a valid personal access token as `Authorization: Bearer …`).",
  );

/** 404 for a resource of a workspace the caller is not in (same words as a resource that does not exist). */
export const hiddenNotFound = (what: string) => new AuthError(404, "not_found", `${what} not found`);

/** 403: the caller can see the resource but their role does not allow the change. */
export const forbidden = (role: string, needed: string) =>
  new AuthError(
    403,
    "forbidden",
    `Your role in this workspace (${role}) cannot ${needed}. Ask an owner or admin of the workspace to change your role.`,
  );
