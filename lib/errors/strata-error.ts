/**
 * The one base class of Strata's errors that reach a user: an HTTP `status`, a machine-readable `code` and a message
 * meant to be read, plus what the answer needs besides (response headers such as `retry-after`, extra JSON fields
 * such as the refused `paths`). Every layer's error extends it, so `errorResponse` (lib/http/errors.ts) maps any of
 * them with one rule: `{ "error": { code, message, ...details } }` with `status` and `headers`.
 */

/** What a {@link StrataError} carries besides status, code and message. */
export interface StrataErrorOptions {
  /** The underlying failure (logged when the status is 500 or more; never sent). */
  cause?: unknown;
  /** Response headers of the answer, e.g. `{ "retry-after": "2" }`. */
  headers?: Record<string, string>;
  /** Extra fields of the JSON error body, e.g. `{ paths: [...] }`. */
  details?: Record<string, unknown>;
}

export class StrataError extends Error {
  readonly headers?: Record<string, string>;
  readonly details?: Record<string, unknown>;

  /**
   * @param status the HTTP status of the answer (400–599).
   * @param code machine-readable, snake_case (`not_found`, `run_active`, …).
   * @param message what the user reads: what happened and what to do next.
   */
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: StrataErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "StrataError";
    if (options.headers) this.headers = options.headers;
    if (options.details) this.details = options.details;
  }
}
