/**
 * Run bookkeeping in Postgres: one unfinished run per session (across tabs and server instances), a
 * heartbeat so a crashed run does not block the session forever, and a cross-instance abort flag. The
 * single-statement updates here are idempotent, so they are simply repeated after a dropped connection.
 *
 * Takeover: a run silent for {@link RUN_STALE_MS} is closed by the next `startRun`; files it flushed without a
 * checkpoint are then committed by the next prompt run (`session_pending_paths`, `recoverInterruptedRun` in
 * lib/agent/checkpointer.ts).
 */
import type { DbScope } from "@/lib/db/client";
import { cancelWaiting } from "./queue-cancel";

/** A run whose heartbeat (every 500 ms) is older than this is considered dead (ms); shell limits keep a live run from going silent this long. */
export const RUN_STALE_MS = 15_000;

/** pi's text for a prompt sent while a run is active without a queueing behaviour (pi 6.3). */
export const ALREADY_PROCESSING =
  "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

/** pi 6.1 step 2: a prompt (or a queued one) while the session is being compacted. */
export const COMPACTION_IN_PROGRESS =
  "Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.";

/** `startRun` on a session that does not exist. */
export class RunSessionNotFoundError extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId} not found`);
    this.name = "RunSessionNotFoundError";
  }
}

/** What holds a session's run lock. */
export type RunKind = "prompt" | "compaction" | "branch_summary" | "bash";

/** Strata's text when something other than an agent run (a shell command, a branch summary) holds the session. */
export const SESSION_BUSY =
  "The session is busy with another operation (a shell command or a branch summary). Send again when it has finished.";

/**
 * A live run holds the session; `kind` says what it is doing: `prompt` → pi's "already processing" text,
 * `compaction` → pi's compaction text, otherwise {@link SESSION_BUSY}.
 */
export class RunActiveError extends Error {
  constructor(readonly kind: RunKind = "prompt") {
    super(
      kind === "compaction" ? COMPACTION_IN_PROGRESS : kind === "prompt" ? ALREADY_PROCESSING : SESSION_BUSY,
    );
    this.name = "RunActiveError";
  }
}

/**
 * Start a run of `kind` on `sessionId`, or throw `RunActiveError` (with the live run's kind) when a live one
 * exists (stale runs are closed).
 * @returns the run id.
 * @throws RunSessionNotFoundError (`Session <id> not found`) when there is no such session.
 */
export async function startRun(scope: DbScope, sessionId: string, kind: RunKind = "prompt"): Promise<string> {
  return (await openRun(scope, sessionId, kind, false)).id;
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
): Promise<{ id: string; returned: string[] }> {
  return openRun(scope, sessionId, kind, true);
}

async function openRun(
  scope: DbScope,
  sessionId: string,
  kind: RunKind,
  reclaim: boolean,
): Promise<{ id: string; returned: string[] }> {
  return scope.transaction(async (q) => {
    const session = await q("SELECT id FROM sessions WHERE id = $1 FOR UPDATE", [sessionId]);
    if (session.length === 0) throw new RunSessionNotFoundError(sessionId);
    // After the lock, one statement (its snapshot sees every committed run): close stale runs, find a live
    // one, else insert ours.
    const [row] = await q<{ id: string | null; live_kind: RunKind | null }>(
      `WITH stale AS (
         UPDATE session_runs SET finished_at = now() WHERE session_id = $1 AND finished_at IS NULL
           AND heartbeat_at < now() - ($2::int * interval '1 millisecond') RETURNING id
       ), live AS (
         SELECT kind FROM session_runs WHERE session_id = $1 AND finished_at IS NULL
           AND id NOT IN (SELECT id FROM stale)
       ), ins AS (
         INSERT INTO session_runs (session_id, kind) SELECT $1, $3 WHERE NOT EXISTS (SELECT 1 FROM live) RETURNING id
       ) SELECT (SELECT id FROM ins) AS id, (SELECT kind FROM live LIMIT 1) AS live_kind`,
      [sessionId, RUN_STALE_MS, kind],
    );
    if (!row?.id) throw new RunActiveError(row?.live_kind ?? "prompt");
    return { id: row.id, returned: reclaim ? await cancelWaiting(q, sessionId) : [] };
  });
}

/** The session's live run (heartbeat within {@link RUN_STALE_MS}), or null. */
export async function getLiveRun(scope: DbScope, sessionId: string): Promise<{ kind: RunKind } | null> {
  const rows = await scope.query<{ kind: RunKind }>(
    `SELECT kind FROM session_runs WHERE session_id = $1 AND finished_at IS NULL
     AND heartbeat_at >= now() - ($2::int * interval '1 millisecond') LIMIT 1`,
    [sessionId, RUN_STALE_MS],
  );
  return rows[0] ? { kind: rows[0].kind } : null;
}

/**
 * Refresh the heartbeat; returns whether the run must stop: an abort was requested, or it no longer holds the
 * session (finished, or taken over after going silent for {@link RUN_STALE_MS}).
 */
export async function heartbeatRun(scope: DbScope, runId: string): Promise<boolean> {
  const rows = await scope.query<{ abort_requested: boolean }>(
    "UPDATE session_runs SET heartbeat_at = now() WHERE id = $1 AND finished_at IS NULL RETURNING abort_requested",
    [runId],
    { repeatable: true },
  );
  return rows[0]?.abort_requested ?? true;
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
