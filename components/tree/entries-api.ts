import { ApiError, errorFromResponse } from "@/components/api-client";

/**
 * `POST /api/projects/:id/entries`: create an empty file or a folder (nothing is overwritten).
 * @returns the created `{ path, kind }`.
 * @throws ApiError: 409 `exists` (`"a.txt" already exists. Choose another name.`), 400 for an invalid path,
 *   `network_error` when the server cannot be reached.
 */
export async function createProjectEntry(
  projectId: string,
  path: string,
  kind: "file" | "dir",
): Promise<{ path: string; kind: "file" | "dir" }> {
  let res: Response;
  try {
    res = await fetch(`/api/projects/${encodeURIComponent(projectId)}/entries`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path, kind }),
    });
  } catch (err) {
    throw new ApiError(0, "network_error", err instanceof Error ? err.message : String(err));
  }
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as { path: string; kind: "file" | "dir" };
}
