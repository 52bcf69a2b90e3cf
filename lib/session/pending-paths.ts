/**
 * Files written but not yet checkpointed (`session_pending_paths`): a run records the project paths it is
 * about to flush before it flushes them and clears them once their checkpoint commit is stored. A run that
 * died in between (its server crashed, it went silent for {@link RUN_STALE_MS} and was taken over, or it ended
 * on a database error) leaves its rows; the session's next prompt run takes them ({@link interruptedPaths})
 * and commits a recovery checkpoint. Every statement here is safe to repeat after a dropped connection.
 */
import type { DbScope } from "@/lib/db/client";
import { RUN_STALE_MS } from "./runs";

/**
 * Record absolute `paths` as about to be flushed by run `runId` (null: a writer without a run lock). A path
 * already recorded moves to this writer.
 */
export async function recordPendingPaths(
  scope: DbScope,
  sessionId: string,
  runId: string | null,
  paths: string[],
): Promise<void> {
  if (paths.length === 0) return;
  await scope.query(
    `INSERT INTO session_pending_paths (session_id, path, run_id)
     SELECT $1, p, $3 FROM unnest($2::text[]) AS p
     ON CONFLICT (session_id, path) DO UPDATE SET run_id = EXCLUDED.run_id, recorded_at = now()`,
    [sessionId, paths, runId],
    { repeatable: true },
  );
}

/** Forget `paths` recorded by `runId` (their checkpoint is stored); rows another writer took over stay. */
export async function clearPendingPaths(
  scope: DbScope,
  sessionId: string,
  runId: string | null,
  paths: string[],
): Promise<void> {
  if (paths.length === 0) return;
  await scope.query(
    `DELETE FROM session_pending_paths
     WHERE session_id = $1 AND path = ANY($2::text[]) AND run_id IS NOT DISTINCT FROM $3`,
    [sessionId, paths, runId],
    { repeatable: true },
  );
}

/** Rows of writers that are gone: a run that finished or went silent, or a lock-less writer older than a stale run. */
const GONE = `session_id = $1 AND run_id IS DISTINCT FROM $2 AND (
    (run_id IS NULL AND recorded_at < now() - ($3::int * interval '1 millisecond'))
    OR (run_id IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM session_runs r WHERE r.id = session_pending_paths.run_id AND r.finished_at IS NULL
        AND r.heartbeat_at >= now() - ($3::int * interval '1 millisecond'))))`;

/**
 * The paths (absolute, sorted) that writers which are gone left uncommitted in session `sessionId`, for the run
 * `runId` that now holds the session.
 */
export async function interruptedPaths(scope: DbScope, sessionId: string, runId: string): Promise<string[]> {
  const rows = await scope.query<{ path: string }>(
    `SELECT path FROM session_pending_paths WHERE ${GONE} ORDER BY path COLLATE "C"`,
    [sessionId, runId, RUN_STALE_MS],
  );
  return rows.map((r) => r.path);
}

/** Forget `paths` taken by {@link interruptedPaths} once their recovery checkpoint is stored. */
export async function clearInterruptedPaths(
  scope: DbScope,
  sessionId: string,
  runId: string,
  paths: string[],
): Promise<void> {
  if (paths.length === 0) return;
  await scope.query(
    `DELETE FROM session_pending_paths WHERE ${GONE} AND path = ANY($4::text[])`,
    [sessionId, runId, RUN_STALE_MS, paths],
    { repeatable: true },
  );
}
