/**
 * Reading a run's log from Postgres, on any app instance: replay the events after a cursor, then follow the
 * run live by tailing `run_events` every {@link TAIL_MS} until its `run_end`, bumping `watched_at` every
 * {@link WATCH_MS} (the owner then hands queued texts back to this viewer). A run whose owner died is closed by
 * the follower itself (`endSilentRun`: `run_end` with `taken_over`), so a follower never waits forever.
 */
import type { DbScope } from "@/lib/db/client";
import { DbScope as Scope } from "@/lib/db/client";
import { endSilentRun } from "@/lib/session/runs";

/** Pause between two reads of the log while nothing new is stored (ms). */
export const TAIL_MS = 100;
/** How often a follower marks the run watched and checks its owner is alive (ms). */
export const WATCH_MS = 2000;
/** Rows per read. */
const PAGE = 500;

/** One stored event: its seq, type and wire JSON. */
export interface StoredEvent {
  seq: number;
  type: string;
  data: string;
}

/** The run `runId` of session `sessionId` as a follower needs it, or null (unknown, or another session's). */
export async function findRun(
  scope: DbScope,
  sessionId: string,
  runId: string,
): Promise<{ id: string; lastSeq: number; finished: boolean } | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(runId)) return null;
  const rows = await scope.query<{ id: string; last_seq: number; finished: boolean }>(
    "SELECT id, last_seq, finished_at IS NOT NULL AS finished FROM session_runs WHERE id = $1 AND session_id = $2",
    [runId, sessionId],
  );
  const r = rows[0];
  return r ? { id: r.id, lastSeq: Number(r.last_seq), finished: r.finished } : null;
}

/** The stored events of run `runId` with seq > `after`, oldest first (at most `limit`). */
export async function readRunEvents(
  scope: DbScope,
  runId: string,
  after: number,
  limit = PAGE,
): Promise<StoredEvent[]> {
  const rows = await scope.query<{ seq: number; type: string; data: string }>(
    "SELECT seq, type, data FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
    [runId, after, limit],
  );
  return rows.map((r) => ({ seq: Number(r.seq), type: r.type, data: r.data }));
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
 * Uses its own connection scope (released at the end; idle between reads when others wait for a slot).
 */
export async function* followRun(options: {
  runId: string;
  after: number;
  signal: AbortSignal;
}): AsyncGenerator<StoredEvent> {
  const { runId, signal } = options;
  const scope = new Scope();
  let cursor = options.after;
  let lastWatch = 0;
  try {
    while (!signal.aborted) {
      if (Date.now() - lastWatch >= WATCH_MS) {
        lastWatch = Date.now();
        await scope.query(
          "UPDATE session_runs SET watched_at = now() WHERE id = $1 AND finished_at IS NULL",
          [runId],
          { repeatable: true },
        );
        // The owner died (silent, or closed without its last row): end the run so this stream can end too.
        await endSilentRun(scope, runId);
        // A cursor at or past the run's end (a reconnect after `run_end`): nothing more will come.
        const end = await scope.query<{ seq: number }>(
          "SELECT seq FROM run_events WHERE run_id = $1 AND type = 'run_end' AND seq <= $2 LIMIT 1",
          [runId, cursor],
        );
        if (end.length > 0) return;
      }
      const rows = await readRunEvents(scope, runId, cursor);
      for (const row of rows) {
        cursor = row.seq;
        yield row;
        if (row.type === "run_end") return;
      }
      if (rows.length < PAGE) await sleep(TAIL_MS, signal);
    }
  } finally {
    await scope.release();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
