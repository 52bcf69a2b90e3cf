/**
 * The session side of file binding (docs/checkpoints.md): the commit an entry records, the checkpoint rows of a
 * session (`session_checkpoints`) and its restores (`session_restores`). Commits themselves live in the project
 * repository; these are the rows that tie them to a session.
 */

import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";

/** Why a checkpoint commit was made. */
export type CheckpointKind = "agent" | "user" | "kept" | "revert" | "restore" | "recovery" | "shell" | "pull";

/** One `session_checkpoints` row. */
export interface CheckpointRow {
  commitOid: string;
  parentOid: string | null;
  kind: CheckpointKind;
  /** Project-relative paths, sorted. */
  paths: string[];
  /** Tool call id → the project-relative paths it changed (agent checkpoints). */
  toolCalls: Record<string, string[]> | null;
  authorUserId: string | null;
  createdAt: string;
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** Store a checkpoint row (idempotent on `(session, commit)`: a commit made twice is one checkpoint). */
export async function recordCheckpoint(
  scope: DbScope,
  sessionId: string,
  row: Omit<CheckpointRow, "createdAt" | "toolCalls" | "authorUserId"> & {
    toolCalls?: Record<string, string[]> | null;
    authorUserId?: string | null;
  },
): Promise<void> {
  await scope.query(
    `INSERT INTO session_checkpoints (session_id, commit_oid, parent_oid, kind, paths, tool_calls, author_user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id, commit_oid) DO NOTHING`,
    [
      sessionId,
      row.commitOid,
      row.parentOid,
      row.kind,
      JSON.stringify(row.paths),
      row.toolCalls ? JSON.stringify(row.toolCalls) : null,
      row.authorUserId ?? null,
    ],
    { repeatable: true },
  );
}

interface RawCheckpoint {
  commit_oid: string;
  parent_oid: string | null;
  kind: CheckpointKind;
  paths: string[];
  tool_calls: Record<string, string[]> | null;
  author_user_id: string | null;
  created_at: Date | string;
}

const toRow = (r: RawCheckpoint): CheckpointRow => ({
  commitOid: r.commit_oid,
  parentOid: r.parent_oid,
  kind: r.kind,
  paths: r.paths,
  toolCalls: r.tool_calls,
  authorUserId: r.author_user_id,
  createdAt: iso(r.created_at),
});

/** The session's checkpoints, oldest first. */
export async function listCheckpoints(scope: DbScope, sessionId: string): Promise<CheckpointRow[]> {
  const rows = await scope.query<RawCheckpoint>(
    "SELECT * FROM session_checkpoints WHERE session_id = $1 ORDER BY created_at, commit_oid",
    [sessionId],
  );
  return rows.map(toRow);
}

/**
 * The commit recorded by entry `entryId` of the session, or by its nearest ancestor that has one (entries written
 * before file binding have none). undefined when the entry does not exist; null when no entry up to the root has one.
 */
export async function entryCommit(
  scope: DbScope,
  sessionId: string,
  entryId: string,
): Promise<string | null | undefined> {
  const rows = await scope.query<{ id: string; commit_oid: string | null; depth: number }>(
    `WITH RECURSIVE w AS (
       SELECT id, parent_id, commit_oid, 0 AS depth FROM session_entries WHERE session_id = $1 AND id = $2
       UNION ALL
       SELECT e.id, e.parent_id, e.commit_oid, w.depth + 1 FROM w
         JOIN session_entries e ON e.session_id = $1 AND e.id = w.parent_id
        WHERE w.commit_oid IS NULL AND w.depth < 100000
     ) SELECT id, commit_oid, depth FROM w ORDER BY depth`,
    [sessionId, entryId],
  );
  if (rows.length === 0) return undefined;
  return rows.find((r) => r.commit_oid !== null)?.commit_oid ?? null;
}

/** The commit of every entry of the session that records one: entry id → commit. */
export async function entryCommits(scope: DbScope, sessionId: string): Promise<Map<string, string>> {
  const rows = await scope.query<{ id: string; commit_oid: string }>(
    "SELECT id, commit_oid FROM session_entries WHERE session_id = $1 AND commit_oid IS NOT NULL",
    [sessionId],
  );
  return new Map(rows.map((r) => [r.id, r.commit_oid]));
}

/** One `session_restores` row. */
export interface RestoreRow {
  id: string;
  mode: "both" | "conversation" | "files";
  fromLeafId: string | null;
  fromCommit: string | null;
  toLeafId: string | null;
  toCommit: string | null;
  undoneBy: string | null;
  userId: string | null;
  createdAt: string;
}

interface RawRestore {
  id: string;
  mode: RestoreRow["mode"];
  from_leaf_id: string | null;
  from_commit: string | null;
  to_leaf_id: string | null;
  to_commit: string | null;
  undone_by: string | null;
  user_id: string | null;
  created_at: Date | string;
}

const toRestore = (r: RawRestore): RestoreRow => ({
  id: r.id,
  mode: r.mode,
  fromLeafId: r.from_leaf_id,
  fromCommit: r.from_commit,
  toLeafId: r.to_leaf_id,
  toCommit: r.to_commit,
  undoneBy: r.undone_by,
  userId: r.user_id,
  createdAt: iso(r.created_at),
});

/** Store a restore; @returns its row. */
export async function recordRestore(
  scope: DbScope,
  sessionId: string,
  row: Omit<RestoreRow, "id" | "undoneBy" | "createdAt">,
): Promise<RestoreRow> {
  const [raw] = await scope.query<RawRestore>(
    `INSERT INTO session_restores (session_id, mode, from_leaf_id, from_commit, to_leaf_id, to_commit, user_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [sessionId, row.mode, row.fromLeafId, row.fromCommit, row.toLeafId, row.toCommit, row.userId],
  );
  return toRestore(raw);
}

/** A restore of the session, or null. */
export async function getRestore(scope: DbScope, sessionId: string, id: string): Promise<RestoreRow | null> {
  if (!isUuid(id)) return null;
  const [raw] = await scope.query<RawRestore>(
    "SELECT * FROM session_restores WHERE session_id = $1 AND id = $2",
    [sessionId, id],
  );
  return raw ? toRestore(raw) : null;
}

/** Mark restore `id` undone by restore `by`. */
export async function markRestoreUndone(
  scope: DbScope,
  sessionId: string,
  id: string,
  by: string,
): Promise<void> {
  await scope.query("UPDATE session_restores SET undone_by = $3 WHERE session_id = $1 AND id = $2", [
    sessionId,
    id,
    by,
  ]);
}
