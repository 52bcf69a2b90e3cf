/**
 * The browser's calls for merging, in either direction (lib/checkpoints/merge.ts, pull-main.ts): a session into main
 * (`/api/sessions/:id/merge`) or main into a session (`/api/sessions/:id/pull-main`).
 */
import { ApiError, apiJson, jsonInit } from "@/components/http/api-fetch";
import type { MergeResult } from "@/lib/checkpoints/merge";
import type { PullMainResult } from "@/lib/checkpoints/pull-main";
import type { MergeConflict } from "@/lib/checkpoints/three-way";

export type { MergeConflict, MergeResult, PullMainResult };

/** `into-main`: the session's work into main; `from-main`: main's changes into the session. */
export type MergeDirection = "into-main" | "from-main";

/** A review or merge in either direction. */
export type ReviewResult = MergeResult | PullMainResult;

const url = (sessionId: string, direction: MergeDirection) =>
  `/api/sessions/${encodeURIComponent(sessionId)}/${direction === "into-main" ? "merge" : "pull-main"}`;

/** The review: what the merge would change, its conflicts and the commits it brings (nothing written). */
export function previewMerge(
  sessionId: string,
  direction: MergeDirection,
  signal?: AbortSignal,
): Promise<ReviewResult> {
  return apiJson(url(sessionId, direction), { signal });
}

/**
 * Merge with the chosen texts of conflicting files (null: delete), if main is still `main` (the reviewed commit).
 * @throws ApiError 409 `merge_conflict` (its `conflicts`: {@link conflictsOf}), 409 `main_moved`, 409 `run_active`,
 *   `network_error`.
 */
export function mergeSession(
  sessionId: string,
  direction: MergeDirection,
  resolutions: Record<string, string | null>,
  main: string | null,
): Promise<ReviewResult> {
  return apiJson(url(sessionId, direction), jsonInit("POST", { resolutions, ...(main ? { main } : {}) }));
}

/** The conflicts a 409 `merge_conflict` answer carries, or null for any other error. */
export function conflictsOf(error: unknown): MergeConflict[] | null {
  if (!(error instanceof ApiError) || error.code !== "merge_conflict") return null;
  return (error.details?.conflicts as MergeConflict[] | undefined) ?? null;
}
