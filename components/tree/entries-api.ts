import { apiJson, jsonInit } from "@/components/http/api-fetch";
import { projectFilesUrl } from "@/components/http/worktree";
import type { SearchResult } from "@/lib/projects/search";

export type { SearchFileResult, SearchHit, SearchResult } from "@/lib/projects/search";

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
  return apiJson(projectFilesUrl(projectId, "/entries"), jsonInit("POST", { path, kind }));
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
  return apiJson(projectFilesUrl(projectId, "/entries"), jsonInit("PATCH", { from, to }));
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
  return apiJson(projectFilesUrl(projectId, `/search?${qs}`), { signal });
}

/** `GET /api/projects/:id/tree/version`: the opaque version of the project's files (changes with any change). */
export async function getTreeVersion(projectId: string, signal?: AbortSignal): Promise<string> {
  return (
    await apiJson<{ version: string }>(projectFilesUrl(projectId, "/tree/version"), {
      signal,
      cache: "no-store",
    })
  ).version;
}
