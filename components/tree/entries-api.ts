import { ApiError, errorFromResponse } from "@/components/api-client";
import type { SearchResult } from "@/lib/projects/search";

export type { SearchFileResult, SearchHit, SearchResult } from "@/lib/projects/search";

const base = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}`;

/** fetch → JSON, or an ApiError (`network_error` when the server cannot be reached; an abort is rethrown). */
async function call<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as T;
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/**
 * `POST /api/projects/:id/entries`: create an empty file or a folder (nothing is overwritten).
 * @returns the created `{ path, kind }`.
 * @throws ApiError: 409 `exists` (`"a.txt" already exists. Choose another name.`), 400 for an invalid path,
 *   `network_error` when the server cannot be reached.
 */
export function createProjectEntry(
  projectId: string,
  path: string,
  kind: "file" | "dir",
): Promise<{ path: string; kind: "file" | "dir" }> {
  return call(`${base(projectId)}/entries`, json("POST", { path, kind }));
}

/** What a move did (`moved`: nodes moved, a folder with everything below it). */
export interface MoveResponse {
  from: string;
  to: string;
  kind: "file" | "dir" | "symlink";
  moved: number;
}

/**
 * `PATCH /api/projects/:id/entries`: rename or move a file or folder (project-relative paths).
 * @throws ApiError: 409 `exists` when `to` is taken (nothing is overwritten), 404 `enoent` for a missing `from`,
 *   400 for an invalid path or a folder moved into itself, `network_error`.
 */
export function moveProjectEntry(projectId: string, from: string, to: string): Promise<MoveResponse> {
  return call(`${base(projectId)}/entries`, json("PATCH", { from, to }));
}

/**
 * `GET /api/projects/:id/search`: the project's text files searched with the grep engine.
 * @throws ApiError 400 `invalid_regex` (the parser's message), `network_error`; an AbortError when `signal` fires.
 */
export function searchProjectFiles(
  projectId: string,
  query: { q: string; regex: boolean; caseSensitive: boolean },
  signal?: AbortSignal,
): Promise<SearchResult> {
  const qs = new URLSearchParams({
    q: query.q,
    regex: query.regex ? "1" : "0",
    case: query.caseSensitive ? "1" : "0",
  });
  return call(`${base(projectId)}/search?${qs}`, { signal });
}

/** `GET /api/projects/:id/tree/version`: the opaque version of the project's files (changes with any change). */
export async function getTreeVersion(projectId: string, signal?: AbortSignal): Promise<string> {
  return (await call<{ version: string }>(`${base(projectId)}/tree/version`, { signal, cache: "no-store" }))
    .version;
}
