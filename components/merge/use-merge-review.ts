"use client";

import { useCallback, useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { ApiError } from "@/components/http/api-fetch";
import { conflictsOf, type MergeDirection, mergeSession, previewMerge, type ReviewResult } from "./merge-api";

/**
 * The state of a merge review (either direction): the preview (loaded on open), the file shown, the texts chosen for conflicts, and the
 * merge. A refused merge keeps the chosen texts; a `merge_conflict` answer updates the conflicts, a `main_moved` one
 * loads the review again.
 */
export function useMergeReview(sessionId: string, direction: MergeDirection) {
  const [review, setReview] = useState<ReviewResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [resolutions, setResolutions] = useState<Record<string, string | null>>({});
  const [merging, setMerging] = useState(false);
  const [merged, setMerged] = useState<(ReviewResult & { request?: unknown }) | null>(null);
  const load = useCallback(
    (signal?: AbortSignal) =>
      previewMerge(sessionId, direction, signal).then(
        (r) => {
          setReview(r);
          setError(null);
          setSelected((s) => s ?? r.conflicts[0]?.path ?? r.files[0]?.path ?? null);
        },
        (err) => {
          if (!signal?.aborted)
            setError(`Could not compute the merge: ${describeError(err)}. Reload to try again.`);
        },
      ),
    [sessionId, direction],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  const merge = async () => {
    setMerging(true);
    setError(null);
    try {
      setMerged(await mergeSession(sessionId, direction, resolutions, review?.main ?? null));
    } catch (err) {
      const more = conflictsOf(err);
      if (more && review) setReview({ ...review, conflicts: more });
      // Main moved since the review: show the new one (the chosen texts stay for the files still in conflict).
      if (err instanceof ApiError && err.code === "main_moved") void load();
      setError(
        more
          ? `${describeError(err)} Your chosen texts are kept.`
          : `The merge did not happen: ${describeError(err)}. Your chosen texts are kept; try again.`,
      );
    } finally {
      setMerging(false);
    }
  };
  /** Reads the review again (after main changed: an approval elsewhere on the page merged it). */
  const reload = () => {
    setMerged(null);
    void load();
  };
  const resolve = (path: string, text: string | null) => setResolutions((r) => ({ ...r, [path]: text }));
  const conflicts = review?.conflicts ?? [];
  return {
    review,
    error,
    selected,
    select: setSelected,
    resolutions,
    resolve,
    /** Conflicts without a chosen text yet. */
    open: conflicts.filter((c) => !(c.path in resolutions)),
    merging,
    merged,
    merge,
    reload,
  };
}

export type MergeReviewState = ReturnType<typeof useMergeReview>;
