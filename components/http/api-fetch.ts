/**
 * The one fetch helper every browser module of `components/` uses to call the Strata HTTP API (docs/http-api.md):
 * {@link apiFetch} sends the request, turns a transport failure into `ApiError(0, "network_error", …)` (an abort is
 * rethrown as is) and a non-2xx answer into the {@link ApiError} its `{ error: { code, message } }` body describes
 * ({@link errorFromResponse}); {@link apiJson} also parses the JSON answer; {@link jsonInit} builds a JSON request.
 * Browser-only: relative `/api/...` URLs on the app origin. A module that needs a status-specific answer catches
 * the ApiError and branches on its `status` or `code`.
 */

/** An error answered by the API (`{ error: { code, message } }`) or a transport failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The error body's fields besides `code` and `message` (e.g. a merge's `conflicts`), when it had any. */
  readonly details?: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    if (details) this.details = details;
  }
}

/** Turns a non-2xx response into an ApiError, reading the documented error body when present. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  let code = `http_${res.status}`;
  let message = res.statusText || `Request failed with status ${res.status}`;
  let details: Record<string, unknown> | undefined;
  try {
    const body: unknown = await res.json();
    const err = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (err && typeof err.message === "string") message = err.message;
    if (err && typeof err.code === "string") code = err.code;
    if (err && typeof err === "object") {
      const { code: _c, message: _m, ...rest } = err as Record<string, unknown>;
      if (Object.keys(rest).length > 0) details = rest;
    }
  } catch {
    // Not JSON: keep the status text.
  }
  return new ApiError(res.status, code, message, details);
}

/**
 * `fetch(url, init)`, resolving the 2xx response unread (for a caller that streams it or reads a blob or text).
 * @param toError builds the error of a non-2xx answer (default {@link errorFromResponse}: `ApiError(status, code,
 *   message)` from the `{ error }` body, else `http_<status>` and the status text); a module whose error carries
 *   more passes its own.
 * @throws the AbortError of an aborted `init.signal`, unchanged; `ApiError(0, "network_error", <the failure's
 *   message>)` when the server could not be reached; `await toError(res)` for a non-2xx answer.
 */
export async function apiFetch(
  url: string,
  init?: RequestInit,
  toError: (res: Response) => Promise<Error> = errorFromResponse,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw await toError(res);
  return res;
}

/**
 * {@link apiFetch}, then the answer's JSON body as `T` (not checked: the type is the caller's word).
 * @throws what {@link apiFetch} throws; a SyntaxError when a 2xx body is not JSON.
 */
export async function apiJson<T>(
  url: string,
  init?: RequestInit,
  toError?: (res: Response) => Promise<Error>,
): Promise<T> {
  return (await (await apiFetch(url, init, toError)).json()) as T;
}

/** A `method` request with `body` as JSON (`content-type: application/json`), aborted by `signal` when given. */
export function jsonInit(method: string, body: unknown, signal?: AbortSignal): RequestInit {
  return {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  };
}
