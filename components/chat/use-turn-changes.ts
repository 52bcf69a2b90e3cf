"use client";

import { useCallback, useEffect, useState } from "react";
import { ApiError, describeError } from "@/components/api-client";
import {
  type BranchTurns,
  getTurnChanges,
  type RevertResult,
  revertChanges,
  type StandingRevert,
  type TurnChanges,
} from "./checkpoints-client";
import {
  revertConfirmText,
  revertedText,
  revertUndoneText,
  undoRevertConfirmText,
} from "./turn-changes-view";

/** What the last revert of a turn said, shown in that turn's summary. */
export interface TurnFeedback {
  turnId: string;
  kind: "info" | "error";
  text: string;
}

/** The turns that changed files, their loading state, and the revert actions. */
export interface TurnChangesApi {
  data: BranchTurns | null;
  loading: boolean;
  /** Why the turns could not be read (shown with Retry), or null. */
  error: string | null;
  retry(): void;
  /** The revert going on: `<turnId>` or `<turnId>:<path>`, or null. */
  reverting: string | null;
  feedback: TurnFeedback | null;
  /** Asks first, then reverts the turn (or one of its files); the outcome shows as `feedback`. */
  revert(turn: TurnChanges, path?: string): Promise<void>;
  /** Asks first, then undoes a standing revert of the turn (reverts base→commit); the outcome shows as `feedback`. */
  undoRevert(turn: TurnChanges, revert: StandingRevert): Promise<void>;
}

/**
 * The session's turns that changed files (`GET /turns`): read when the session opens and again whenever
 * `refreshKey` changes (a run ended), one request each. `onReverted` runs after a successful revert (reload the
 * conversation, whose leaf moved, and the files).
 */
export function useTurnChanges(
  sessionId: string | null,
  refreshKey: unknown,
  onReverted: (result: RevertResult) => void,
): TurnChangesApi {
  const [data, setData] = useState<BranchTurns | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [seq, setSeq] = useState(0);
  const [reverting, setReverting] = useState<string | null>(null);
  const [feedback, setFeedback] = useState<TurnFeedback | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `refreshKey` and `seq` are the triggers
  useEffect(() => {
    setError(null);
    if (!sessionId) {
      setData(null);
      return;
    }
    const ctrl = new AbortController();
    setLoading(true);
    getTurnChanges(sessionId, ctrl.signal)
      .then((d) => setData(d))
      .catch((err) => {
        if (!ctrl.signal.aborted) setError(describeError(err));
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false);
      });
    return () => ctrl.abort();
  }, [sessionId, refreshKey, seq]);

  // Another session's feedback does not carry over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a session switch only
  useEffect(() => {
    setData(null);
    setFeedback(null);
  }, [sessionId]);

  const retry = useCallback(() => setSeq((n) => n + 1), []);

  /** One revert request for `turn` (`busyKey` while it runs); `done` words the outcome. */
  const run = async (
    turn: TurnChanges,
    busyKey: string,
    body: { from: string; to: string; path?: string; label: string },
    done: (result: RevertResult) => string,
  ) => {
    if (!sessionId) return;
    const turnId = turn.userEntryId;
    setReverting(busyKey);
    setFeedback(null);
    try {
      const result = await revertChanges(sessionId, body);
      onReverted(result);
      // The leaf moved: the turns (and the session's end) are read again before the outcome shows.
      await getTurnChanges(sessionId).then(setData, retry);
      setFeedback({ turnId, kind: "info", text: done(result) });
    } catch (err) {
      // The server's own words (a conflict names the files); a transport failure says so.
      const text = err instanceof ApiError && err.status > 0 ? err.message : describeError(err);
      setFeedback({ turnId, kind: "error", text });
    } finally {
      setReverting(null);
    }
  };

  const revert = async (turn: TurnChanges, path?: string) => {
    if (!sessionId || !turn.from || !turn.to || reverting) return;
    if (!window.confirm(revertConfirmText(turn.files, path))) return;
    const turnId = turn.userEntryId;
    await run(
      turn,
      path === undefined ? turnId : `${turnId}:${path}`,
      {
        from: turn.from,
        to: turn.to,
        ...(path === undefined ? {} : { path }),
        label: `turn ${turnId.slice(0, 8)}`,
      },
      (result) => revertedText(result.paths),
    );
  };

  const undoRevert = async (turn: TurnChanges, standing: StandingRevert) => {
    if (!sessionId || reverting) return;
    if (!window.confirm(undoRevertConfirmText(standing.paths))) return;
    await run(
      turn,
      `${turn.userEntryId}:undo:${standing.entryId}`,
      { from: standing.base, to: standing.commit, label: `revert ${standing.commit.slice(0, 8)}` },
      (result) => revertUndoneText(result.paths),
    );
  };

  return { data, loading, error, retry, reverting, feedback, revert, undoRevert };
}
