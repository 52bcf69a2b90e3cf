/**
 * Run bookkeeping in Postgres: one unfinished run per session (across tabs and server instances), a
 * heartbeat so a crashed run does not block the session forever, and a cross-instance abort flag. The
 * single-statement updates here are idempotent, so they are simply repeated after a dropped connection.
 *
 * Takeover: a run silent for {@link RUN_STALE_MS} is closed by the next `startRun` (or by a tab following it,
 * {@link endSilentRun}) with `outcome = 'taken_over'` and a last `run_end` row in its event log (`run_events`,
 * lib/runs); files it flushed without a checkpoint are then committed by the next prompt run
 * (`session_pending_paths`, `recoverInterruptedRun` in lib/agent-session/checkpointer.ts).
 */

import type { DbScope } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import { SessionNotFoundError } from "./errors";
import { cancelWaiting } from "./queue-cancel";

/** A run whose heartbeat (every 500 ms) is older than this is considered dead (ms); shell limits keep a live run from going silent this long. */
export const RUN_STALE_MS = 15_000;

/** pi's text for a prompt sent while a run is active without a queueing behaviour (pi's `agent-session.ts`). */
export const ALREADY_PROCESSING =
  "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

/** pi's `agent-session.ts` step 2: a prompt (or a queued one) while the session is being compacted. */
export const COMPACTION_IN_PROGRESS =
  "Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.";

/** What holds a session's run lock. */
export type RunKind = "prompt" | "compaction" | "branch_summary" | "bash";

/** How a run started (how a tab replaying it starts its view): a new prompt, the Retry button, a `!command`. */
export type RunMode = "prompt" | "retry" | "bash";

/** How a run ended (`session_runs.outcome`, the `run_end` event). */
export type RunOutcome = "done" | "aborted" | "error" | "taken_over";

/**
 * The `run_end` row a taker writes for a run that went silent (or closed without one), as a SQL expression of
 * the run's `outcome` column: the same JSON the run's owner would have written (`{"type":"run_end","outcome":…}`).
 */
const RUN_END_DATA_SQL = `'{"type":"run_end","outcome":"' || outcome || '"}'`;

/** Next seq of a run's log: one past the stored rows and `last_seq` (SQL, `r` = the `session_runs` row). */
const NEXT_SEQ_SQL =
  "GREATEST(r.last_seq, COALESCE((SELECT max(e.seq) FROM run_events e WHERE e.run_id = r.id), 0)) + 1";

/** Strata's text when something other than an agent run (a shell command, a branch summary) holds the session. */
export const SESSION_BUSY =
  "The session is busy with another operation (a shell command or a branch summary). Send again when it has finished.";

/**
 * A live run holds the session; `kind` says what it is doing: `prompt` → pi's "already processing" text,
 * `compaction` → pi's compaction text, otherwise {@link SESSION_BUSY}.
 */
export class RunActiveError extends StrataError {
  constructor(readonly kind: RunKind = "prompt") {
    super(
      409,
      kind === "compaction" ? "compacting" : kind === "prompt" ? "run_active" : "session_busy",
      kind === "compaction" ? COMPACTION_IN_PROGRESS : kind === "prompt" ? ALREADY_PROCESSING : SESSION_BUSY,
    );
    this.name = "RunActiveError";
  }
}

/**
 * Start a run of `kind` on `sessionId`, or throw `RunActiveError` (with the live run's kind) when a live one
 * exists (stale runs are closed as taken over). The run records the session's leaf (`start_leaf_id`) and `mode`
 * (default: `bash` for a `bash` run, else `prompt`).
 * @returns the run id.
 * @throws SessionNotFoundError (`Session <id> not found`) when there is no such session.
 */
export async function startRun(
  scope: DbScope,
  sessionId: string,
  kind: RunKind = "prompt",
  mode?: RunMode,
): Promise<string> {
  return (await openRun(scope, sessionId, kind, false, mode)).id;
}

/**
 * {@link startRun} for a prompt run that also takes back, in the same locked step, the steer and follow-up texts
 * an earlier run left undelivered (its client went away, or its server died): they are never given to this
 * run, but handed back (`returned`, oldest first) for the client to put back into the composer.
 */
export async function startPromptRun(
  scope: DbScope,
  sessionId: string,
  kind: RunKind = "prompt",
  mode?: RunMode,
): Promise<{ id: string; returned: string[]; leafId: string | null }> {
  return openRun(scope, sessionId, kind, true, mode);
}

async function openRun(
  scope: DbScope,
  sessionId: string,
  kind: RunKind,
  reclaim: boolean,
  mode: RunMode = kind === "bash" ? "bash" : "prompt",
): Promise<{ id: string; returned: string[]; leafId: string | null }> {
  return scope.transaction(async (q) => {
    // The lock also gives the leaf the run starts on: no later read of the row (the request's one read was before).
    const session = await q<{ leaf_id: string | null }>(
      "SELECT leaf_id FROM sessions WHERE id = $1 FOR UPDATE",
      [sessionId],
    );
    if (session.length === 0) throw new SessionNotFoundError(sessionId);
    // After the lock, one statement (its snapshot sees every committed run): close stale runs (taken over,
    // with their last `run_end` row), find a live one, else insert ours.
    const [row] = await q<{ id: string | null; live_kind: RunKind | null }>(
      `WITH stale AS (
         UPDATE session_runs r SET finished_at = now(), outcome = COALESCE(outcome, 'taken_over'),
           last_seq = ${NEXT_SEQ_SQL}
         WHERE session_id = $1 AND finished_at IS NULL
           AND heartbeat_at < now() - ($2::int * interval '1 millisecond') RETURNING id, last_seq, outcome
       ), ended AS (
         INSERT INTO run_events (run_id, seq, type, data)
         SELECT id, last_seq, 'run_end', ${RUN_END_DATA_SQL} FROM stale ON CONFLICT DO NOTHING
       ), live AS (
         SELECT kind FROM session_runs WHERE session_id = $1 AND finished_at IS NULL
           AND id NOT IN (SELECT id FROM stale)
       ), ins AS (
         INSERT INTO session_runs (session_id, kind, mode, start_leaf_id)
         SELECT $1, $3, $4, $5::text WHERE NOT EXISTS (SELECT 1 FROM live)
         RETURNING id
       ) SELECT (SELECT id FROM ins) AS id, (SELECT kind FROM live LIMIT 1) AS live_kind`,
      [sessionId, RUN_STALE_MS, kind, mode, session[0].leaf_id],
    );
    if (!row?.id) throw new RunActiveError(row?.live_kind ?? "prompt");
    const leafId = session[0].leaf_id;
    return { id: row.id, returned: reclaim ? await cancelWaiting(q, sessionId) : [], leafId };
  });
}

/** A live run as `GET /api/sessions/:id` reports it. */
export interface LiveRun {
  id: string;
  kind: RunKind;
  mode: RunMode;
  /** The session's leaf when the run started (null: it started on an empty session). */
  startLeafId: string | null;
  /** Seq of the last event stored in the run's log (0: none yet). */
  lastSeq: number;
}

/** The session's live run (heartbeat within {@link RUN_STALE_MS}), or null. */
export async function getLiveRun(scope: DbScope, sessionId: string): Promise<LiveRun | null> {
  const rows = await scope.query<{
    id: string;
    kind: RunKind;
    mode: RunMode;
    start_leaf_id: string | null;
    last_seq: number;
  }>(
    `SELECT id, kind, mode, start_leaf_id, last_seq FROM session_runs WHERE session_id = $1 AND finished_at IS NULL
     AND heartbeat_at >= now() - ($2::int * interval '1 millisecond') ORDER BY started_at DESC LIMIT 1`,
    [sessionId, RUN_STALE_MS],
  );
  const r = rows[0];
  return r
    ? { id: r.id, kind: r.kind, mode: r.mode, startLeafId: r.start_leaf_id, lastSeq: Number(r.last_seq) }
    : null;
}

/** What a heartbeat learnt: the run goes on (`live`), must abort, or no longer holds the session. */
export interface RunPulse {
  state: "live" | "abort" | "finished" | "taken_over";
  /** A tab streamed the run within the last 5 s (`watched_at`, bumped by `GET …/runs/:runId/events`). */
  watched: boolean;
}

/** How recent `watched_at` must be for a run to count as watched (ms). */
export const RUN_WATCHED_MS = 5000;

/**
 * Refresh the heartbeat of run `runId` and read its state: `abort` (requested by `POST …/abort`), `finished`
 * (closed by its own work, e.g. `finishRunIfIdle`), `taken_over` (closed by a taker after going silent for
 * {@link RUN_STALE_MS}), else `live`; and whether a tab watches it.
 */
export async function pulseRun(scope: DbScope, runId: string): Promise<RunPulse> {
  const rows = await scope.query<{
    finished: boolean;
    outcome: string | null;
    abort_requested: boolean;
    watched: boolean;
  }>(
    `UPDATE session_runs SET heartbeat_at = CASE WHEN finished_at IS NULL THEN now() ELSE heartbeat_at END
     WHERE id = $1
     RETURNING finished_at IS NOT NULL AS finished, outcome, abort_requested,
       COALESCE(watched_at >= now() - ($2::int * interval '1 millisecond'), false) AS watched`,
    [runId, RUN_WATCHED_MS],
    { repeatable: true },
  );
  const r = rows[0];
  if (!r) return { state: "taken_over", watched: false };
  const state = r.finished
    ? r.outcome === "taken_over"
      ? "taken_over"
      : "finished"
    : r.abort_requested
      ? "abort"
      : "live";
  return { state, watched: r.watched };
}

/**
 * Refresh the heartbeat; returns whether the run must stop: an abort was requested, or it no longer holds the
 * session (finished, or taken over after going silent for {@link RUN_STALE_MS}).
 */
export async function heartbeatRun(scope: DbScope, runId: string): Promise<boolean> {
  return (await pulseRun(scope, runId)).state !== "live";
}

/**
 * Close run `runId` for a tab that follows it when its owner is gone, writing the run's last `run_end` row:
 * silent for {@link RUN_STALE_MS} (unfinished: taken over; or finished by an owner that died before its
 * `run_end`) → outcome `taken_over`; a run that keeps no log (`last_seq` 0: a compaction or branch summary)
 * finished for `closedGraceMs` → `done`. A run that has its `run_end` row is left alone.
 * @returns true when it wrote the `run_end` row.
 */
export async function endSilentRun(scope: DbScope, runId: string, closedGraceMs = 2000): Promise<boolean> {
  const rows = await scope.query(
    `WITH r0 AS (
       SELECT id FROM session_runs WHERE id = $1
         AND NOT EXISTS (SELECT 1 FROM run_events WHERE run_id = $1 AND type = 'run_end')
         AND (heartbeat_at < now() - ($2::int * interval '1 millisecond')
           OR (last_seq = 0 AND finished_at < now() - ($3::int * interval '1 millisecond')))
     ), ended AS (
       UPDATE session_runs r SET
         outcome = COALESCE(outcome,
           CASE WHEN last_seq = 0 AND finished_at IS NOT NULL THEN 'done' ELSE 'taken_over' END),
         finished_at = COALESCE(finished_at, now()), last_seq = ${NEXT_SEQ_SQL}
       WHERE id IN (SELECT id FROM r0) RETURNING id, last_seq, outcome
     ) INSERT INTO run_events (run_id, seq, type, data)
       SELECT id, last_seq, 'run_end', ${RUN_END_DATA_SQL} FROM ended ON CONFLICT DO NOTHING RETURNING seq`,
    [runId, RUN_STALE_MS, closedGraceMs],
  );
  return rows.length > 0;
}

/** Say what the run is doing now (e.g. `compaction` while a prompt run compacts). */
export async function setRunKind(scope: DbScope, runId: string, kind: RunKind): Promise<void> {
  await scope.query("UPDATE session_runs SET kind = $2 WHERE id = $1", [runId, kind], { repeatable: true });
}

/** Mark the run finished. */
export async function finishRun(scope: DbScope, runId: string): Promise<void> {
  await scope.query("UPDATE session_runs SET finished_at = now() WHERE id = $1", [runId], {
    repeatable: true,
  });
}

/** Ask the session's live run to abort. Returns true when there was one. */
export async function requestAbort(scope: DbScope, sessionId: string): Promise<boolean> {
  const rows = await scope.query(
    "UPDATE session_runs SET abort_requested = true WHERE session_id = $1 AND finished_at IS NULL RETURNING id",
    [sessionId],
    { repeatable: true },
  );
  return rows.length > 0;
}
