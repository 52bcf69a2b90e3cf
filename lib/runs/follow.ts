/**
 * Reading a run's log from Postgres, on any app instance: replay the events after a cursor, then follow the
 * run live until its `run_end`. The followers of one run in this process share one tail (run-tail.ts: one read
 * of `run_events` per {@link TAIL_MS} tick, `watched_at` bumped and the owner checked once per {@link WATCH_MS},
 * a run whose owner died closed with `run_end` `taken_over`), so a follower never waits forever and 150 tabs
 * cost the database what one costs.
 */

import type { DbScope } from "@/lib/db/client";
import { DbScope as Scope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import {
  PAGE,
  readRunEvents,
  runFollowMetrics,
  type StoredEvent,
  type TailSubscriber,
  tailOf,
} from "./run-tail";

export { readRunEvents, type StoredEvent, TAIL_MS, WATCH_MS } from "./run-tail";

/** The run `runId` of session `sessionId` as a follower needs it, or null (unknown, or another session's). */
export async function findRun(
  scope: DbScope,
  sessionId: string,
  runId: string,
): Promise<{ id: string; lastSeq: number; finished: boolean } | null> {
  if (!isUuid(runId)) return null;
  const rows = await scope.query<{ id: string; last_seq: number; finished: boolean }>(
    "SELECT id, last_seq, finished_at IS NOT NULL AS finished FROM session_runs WHERE id = $1 AND session_id = $2",
    [runId, sessionId],
  );
  const r = rows[0];
  return r ? { id: r.id, lastSeq: Number(r.last_seq), finished: r.finished } : null;
}

/**
 * The cursor of a follow request: the `Last-Event-ID` header (a reconnecting EventSource sends it) wins over
 * `?after=N`; else 0 (the whole run). A value that is not a whole number ≥ 0 counts as absent; a number past
 * the largest seq (`run_events.seq` is an int) is that largest seq, so it is past the run's end and nothing is replayed.
 */
export function followCursor(lastEventId: string | null, after: string | null): number {
  for (const value of [lastEventId, after]) {
    if (value !== null && /^\d+$/.test(value.trim())) return Math.min(Number(value.trim()), MAX_SEQ);
  }
  return 0;
}

/** The largest seq a run can have (`run_events.seq` is a Postgres int). */
const MAX_SEQ = 2_147_483_647;

/**
 * Every event of run `runId` after `after`, then live ones, until `run_end` (included) or `signal` aborts.
 * Replays from the shared tail's buffer when it covers `after`, else with its own reads (a connection of its own,
 * released before the live part); then takes the rows the tail reads. A run whose `run_end` is at or before
 * `after` yields nothing and ends once the tail knows that seq (at once for a finished run).
 * @throws DbUnavailableError / DbBusyError when the database fails for longer than its retry budget.
 */
export async function* followRun(options: {
  runId: string;
  after: number;
  signal: AbortSignal;
}): AsyncGenerator<StoredEvent> {
  const { runId, signal } = options;
  const pending: StoredEvent[] = [];
  let stopped: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const subscriber: TailSubscriber = {
    push: (row) => {
      pending.push(row);
      wake?.();
    },
    stopped: (error) => {
      stopped = { error };
      wake?.();
    },
  };
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort, { once: true });
  let cursor = options.after;
  let ended = false;
  /** The rows after the cursor, in order, up to and including `run_end`. */
  function* take(rows: StoredEvent[]): Generator<StoredEvent> {
    for (const row of rows) {
      if (row.seq <= cursor) continue;
      cursor = row.seq;
      yield row;
      if (row.type === "run_end") {
        ended = true;
        return;
      }
    }
  }
  const tail = tailOf(runId, cursor);
  try {
    const buffered = tail.subscribe(subscriber, cursor);
    if (buffered) yield* take(buffered);
    else {
      // Older than the tail's buffer: read up to the present ourselves (rows the tail reads meanwhile wait in `pending`).
      const scope = new Scope();
      try {
        for (;;) {
          runFollowMetrics.replayReads++;
          const rows = await readRunEvents(scope, runId, cursor);
          yield* take(rows);
          if (ended || rows.length < PAGE || signal.aborted) break;
        }
      } finally {
        await scope.release();
      }
    }
    while (!ended && !signal.aborted) {
      if (pending.length > 0) {
        yield* take(pending.splice(0));
        continue;
      }
      // A cursor at or past the run's end (a reconnect after `run_end`): nothing more will come.
      if (tail.endSeq !== null && cursor >= tail.endSeq) return;
      if (stopped) {
        if (stopped.error !== undefined) throw stopped.error;
        throw new Error(
          `The live tail of run ${runId} stopped before its run_end; re-attach from id ${cursor}.`,
        );
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    tail.unsubscribe(subscriber);
  }
}
