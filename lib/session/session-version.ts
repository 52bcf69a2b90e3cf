/**
 * The change feed of one session, for every tab that has it open (its owner's second tab, a teammate's): a token
 * that changes when the session's conversation moves (an entry appended, a restore: its leaf and `updated_at`), a
 * run starts or ends, or its queue of steering / follow-up messages changes. One statement over primary keys and
 * indexes; a tab polls it while visible and not following a run, and re-reads the session when it changes.
 */
import type { DbScope } from "@/lib/db/client";
import { RUN_STALE_MS } from "./runs";

/**
 * The version of session `sessionId`, or null when it does not exist.
 * @returns e.g. `"d3f1a2b4:1733600000000:run-id:2"` (leaf, `updated_at` in ms, the live run's id or empty, the
 *   queue's newest seq and size).
 */
export async function sessionVersion(scope: DbScope, sessionId: string): Promise<string | null> {
  const rows = await scope.query<{ v: string }>(
    `SELECT coalesce(s.leaf_id, '') || ':' || (extract(epoch FROM s.updated_at) * 1000)::bigint || ':' ||
       coalesce((SELECT r.id::text FROM session_runs r WHERE r.session_id = s.id AND r.finished_at IS NULL
         AND r.heartbeat_at >= now() - ($2::int * interval '1 millisecond') ORDER BY r.started_at DESC LIMIT 1), '')
       || ':' || (SELECT coalesce(max(q.seq), 0) || '.' || count(*) FROM session_queue q WHERE q.session_id = s.id)
       AS v
     FROM sessions s WHERE s.id = $1`,
    [sessionId, RUN_STALE_MS],
  );
  return rows[0]?.v ?? null;
}

/** How long a viewer counts as present after its tab's last poll (ms): a few polls' worth. */
export const PRESENCE_MS = 5_000;

/** A user who has the session open. */
export interface SessionViewer {
  userId: string;
  name: string;
}

/**
 * Stamp `userId` as viewing session `sessionId` now, and list who viewed it within {@link PRESENCE_MS} (the caller
 * included), by name — while a run is live, also who polled up to then since its start (a tab streaming the run does
 * not poll). Two statements.
 */
export async function seeSession(
  scope: DbScope,
  sessionId: string,
  userId: string,
): Promise<SessionViewer[]> {
  await scope.query(
    `INSERT INTO session_viewers (session_id, user_id, seen_at) VALUES ($1, $2, now())
     ON CONFLICT (session_id, user_id) DO UPDATE SET seen_at = now()`,
    [sessionId, userId],
  );
  const rows = await scope.query<{ user_id: string; name: string | null; email: string }>(
    `SELECT v.user_id, u.name, u.email FROM session_viewers v JOIN users u ON u.id = v.user_id
     WHERE v.session_id = $1 AND v.seen_at >= least(now() - ($2::int * interval '1 millisecond'), coalesce(
       (SELECT r.started_at - ($2::int * interval '1 millisecond') FROM session_runs r WHERE r.session_id = $1
         AND r.finished_at IS NULL ORDER BY r.started_at DESC LIMIT 1), 'infinity'))
     ORDER BY u.name, u.email`,
    [sessionId, PRESENCE_MS],
  );
  return rows.map((r) => ({ userId: r.user_id, name: r.name || r.email }));
}
