/**
 * The browser's calls to Better Auth (`/api/auth/*`) and to Strata's own JSON routes, with the app's `apiFetch`
 * (components/http/api-fetch.ts; Better Auth's client would bring zod into the browser bundle, which the pages' CSP
 * refuses). Failures throw {@link AccountError}; {@link accountErrorMessage} turns one into the sentence a user reads.
 */
import { apiFetch } from "@/components/http/api-fetch";

/** Shortest password the server accepts (lib/auth/server.ts `minPasswordLength`; an integration test ties them). */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password the server accepts (lib/auth/server.ts `maxPasswordLength`). */
export const MAX_PASSWORD_LENGTH = 256;

/** A refused or failed call: HTTP `status` (0 = the server was not reached), the server's `code` and `message`. */
export class AccountError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait (from `Retry-After` / `X-Retry-After`), for a 429. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "AccountError";
  }
}

/** The error of a non-2xx response: Better Auth's `{ code, message }` or Strata's `{ error: { code, message } }`. */
export async function errorOf(res: Response): Promise<AccountError> {
  let code = "";
  let message = "";
  try {
    const body = (await res.json()) as {
      code?: string;
      message?: string;
      error?: { code?: string; message?: string };
    };
    code = body.error?.code ?? body.code ?? "";
    message = body.error?.message ?? body.message ?? "";
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const wait = Number(res.headers.get("retry-after") ?? res.headers.get("x-retry-after") ?? Number.NaN);
  return new AccountError(
    res.status,
    code,
    message,
    Number.isFinite(wait) && wait >= 0 ? Math.ceil(wait) : undefined,
  );
}

/**
 * `method` `path` with a JSON `body`, same-origin cookies; the parsed JSON answer (null for an empty body).
 * @throws AccountError for a non-2xx answer, or with status 0 when the server could not be reached.
 */
export async function callJson<T>(
  path: string,
  body?: unknown,
  method = body === undefined ? "GET" : "POST",
): Promise<T> {
  let res: Response;
  try {
    res = await apiFetch(
      path,
      {
        method,
        credentials: "same-origin",
        headers: body === undefined ? undefined : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      errorOf,
    );
  } catch (err) {
    // A refusal is errorOf's AccountError; anything else (the network_error ApiError) did not reach the server.
    if (err instanceof AccountError) throw err;
    throw new AccountError(0, "network", "The server could not be reached.");
  }
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * The sentence for `error` (any thrown value), saying what happened and what to do next. Better Auth's codes get
 * Strata's words: wrong email or password, email taken, password too short / long, sign-up closed, too many
 * attempts (with the wait), a session too old for a sensitive change, signed out; anything else keeps the
 * server's message and status.
 */
export function accountErrorMessage(error: unknown): string {
  if (!(error instanceof AccountError))
    return `Something went wrong: ${error instanceof Error ? error.message : String(error)}. Reload the page and try again.`;
  const { status, code, message, retryAfter } = error;
  if (status === 0)
    return "Could not reach the Strata server. Check that it is running and your connection, then try again.";
  if (status === 429)
    return retryAfter !== undefined
      ? `Too many attempts — try again in ${retryAfter} s.`
      : "Too many attempts — wait a minute and try again.";
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return "Wrong email or password. Check both and try again.";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return "An account with this email already exists. Sign in instead, or use another email.";
    case "PASSWORD_TOO_SHORT":
      return `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
    case "PASSWORD_TOO_LONG":
      return `The password is too long: use at most ${MAX_PASSWORD_LENGTH} characters.`;
    case "INVALID_EMAIL":
      return "That is not a valid email address.";
    case "EMAIL_PASSWORD_SIGN_UP_DISABLED":
      return "Sign-up is closed on this server; ask an owner for an invitation.";
    case "INVALID_PASSWORD":
      return "The current password is wrong. Type it again (or sign out and back in if you forgot it).";
    case "CREDENTIAL_ACCOUNT_NOT_FOUND":
      return "This account has no password yet. Use “Set a password” instead.";
    case "PASSWORD_ALREADY_SET":
      return "This account already has a password. Use “Change password” with the current one.";
    case "SESSION_NOT_FRESH":
      return "For your security, sign in again to do this (this sign-in is more than a day old).";
  }
  if (status === 401) return "You are signed out. Sign in again, then retry.";
  if (status === 403) return message ? `Not allowed: ${message}` : "You are not allowed to do this.";
  return message
    ? `${message} (HTTP ${status}).`
    : `The server answered HTTP ${status}. Try again in a moment.`;
}
