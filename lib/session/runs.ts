/**
 * Run bookkeeping in Postgres: one unfinished run per session (across tabs and server instances), a
 * heartbeat so a crashed run does not block the session forever, and a cross-instance abort flag.
 */
import type { DbScope } from "@/lib/db/client";

/** A run whose heartbeat is older than this is considered dead (ms). */
export const RUN_STALE_MS = 60_000;

/** pi's text for a prompt sent while a run is active without a queueing behaviour (pi 6.3). */
export const ALREADY_PROCESSING =
  "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

export class RunActiveError extends Error {
  constructor() {
    super(ALREADY_PROCESSING);
    this.name = "RunActiveError";
  }
}

/**
 * Start a run on `sessionId`, or throw `RunActiveError` when a live one exists (stale runs are closed).
 * @returns the run id.
 */
export async function startRun(scope: DbScope, sessionId: string): Promise<string> {
  return scope.transaction(async (q) => {
    await q("SELECT id FROM sessions WHERE id = $1 FOR UPDATE", [sessionId]);
    await q(
      `UPDATE session_runs SET finished_at = now() WHERE session_id = $1 AND finished_at IS NULL
       AND heartbeat_at < now() - ($2::int * interval '1 millisecond')`,
      [sessionId, RUN_STALE_MS],
    );
    const live = await q("SELECT id FROM session_runs WHERE session_id = $1 AND finished_at IS NULL", [
      sessionId,
    ]);
    if (live.length > 0) throw new RunActiveError();
    const [row] = await q<{ id: string }>("INSERT INTO session_runs (session_id) VALUES ($1) RETURNING id", [
      sessionId,
    ]);
    return row.id;
  });
}

/** Refresh the heartbeat; returns whether an abort was requested. */
export async function heartbeatRun(scope: DbScope, runId: string): Promise<boolean> {
  const rows = await scope.query<{ abort_requested: boolean }>(
    "UPDATE session_runs SET heartbeat_at = now() WHERE id = $1 RETURNING abort_requested",
    [runId],
  );
  return rows[0]?.abort_requested ?? true;
}

/** Mark the run finished. */
export async function finishRun(scope: DbScope, runId: string): Promise<void> {
  await scope.query("UPDATE session_runs SET finished_at = now() WHERE id = $1", [runId]);
}

/** Ask the session's live run to abort. Returns true when there was one. */
export async function requestAbort(scope: DbScope, sessionId: string): Promise<boolean> {
  const rows = await scope.query(
    "UPDATE session_runs SET abort_requested = true WHERE session_id = $1 AND finished_at IS NULL RETURNING id",
    [sessionId],
  );
  return rows.length > 0;
}
