/** The browser's calls for merging a session into main (`/api/sessions/:id/merge`, lib/checkpoints/merge.ts). */
import { ApiError, apiJson, jsonInit } from "@/components/http/api-fetch";
import type { MergeResult } from "@/lib/checkpoints/merge";
import type { MergeConflict } from "@/lib/checkpoints/three-way";

export type { MergeConflict, MergeResult };

const url = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/merge`;

/** The review: what merging would change on main, its conflicts and the session's checkpoints (nothing written). */
export function previewMerge(sessionId: string, signal?: AbortSignal): Promise<MergeResult> {
  return apiJson(url(sessionId), { signal });
}

/**
 * Merge into main with the chosen texts of conflicting files (null: delete), if main is still `main` (the reviewed
 * commit).
 * @throws ApiError 409 `merge_conflict` (its `conflicts`: {@link conflictsOf}), 409 `main_moved`, 409 `run_active`,
 *   `network_error`.
 */
export function mergeSession(
  sessionId: string,
  resolutions: Record<string, string | null>,
  main: string | null,
): Promise<MergeResult> {
  return apiJson(url(sessionId), jsonInit("POST", { resolutions, ...(main ? { main } : {}) }));
}

/** The conflicts a 409 `merge_conflict` answer carries, or null for any other error. */
export function conflictsOf(error: unknown): MergeConflict[] | null {
  if (!(error instanceof ApiError) || error.code !== "merge_conflict") return null;
  return (error.details?.conflicts as MergeConflict[] | undefined) ?? null;
}
