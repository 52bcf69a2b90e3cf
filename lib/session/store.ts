/**
 * Sessions and their append-only entry tree in Postgres. Entries are never updated; each append is one
 * transaction that inserts the entry and moves the session's leaf to it. Only the current branch is read
 * back (a recursive walk from the leaf), so a request costs what its branch costs, not the session.
 */
import type { DbScope } from "@/lib/db/client";
import { generateEntryId, type NewEntry, type SessionEntry } from "./entries";

export interface SessionRow {
  id: string;
  projectId: string;
  userId: string | null;
  title: string | null;
  cwd: string;
  leafId: string | null;
  createdAt: string;
  updatedAt: string;
}

interface RawSession {
  id: string;
  project_id: string;
  user_id: string | null;
  title: string | null;
  cwd: string;
  leaf_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

function toSession(r: RawSession): SessionRow {
  return {
    id: r.id,
    projectId: r.project_id,
    userId: r.user_id,
    title: r.title,
    cwd: r.cwd,
    leafId: r.leaf_id,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** Thrown when another writer moved the leaf between read and append. */
export class LeafMovedError extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId} changed concurrently (its leaf moved); reload and retry`);
    this.name = "LeafMovedError";
  }
}

/** Create an empty session for a project. */
export async function createSession(
  scope: DbScope,
  input: { projectId: string; userId?: string | null; cwd: string; title?: string | null },
): Promise<SessionRow> {
  const [row] = await scope.query<RawSession>(
    "INSERT INTO sessions (project_id, user_id, cwd, title) VALUES ($1, $2, $3, $4) RETURNING *",
    [input.projectId, input.userId ?? null, input.cwd, input.title ?? null],
  );
  return toSession(row);
}

/** A session by id, or null. */
export async function getSession(scope: DbScope, id: string): Promise<SessionRow | null> {
  const rows = await scope.query<RawSession>("SELECT * FROM sessions WHERE id = $1", [id]);
  return rows[0] ? toSession(rows[0]) : null;
}

/** A project's sessions, most recently updated first. */
export async function listSessions(scope: DbScope, projectId: string): Promise<SessionRow[]> {
  const rows = await scope.query<RawSession>(
    "SELECT * FROM sessions WHERE project_id = $1 ORDER BY updated_at DESC, created_at DESC",
    [projectId],
  );
  return rows.map(toSession);
}

/** Set the session's display title. */
export async function setSessionTitle(scope: DbScope, id: string, title: string): Promise<void> {
  await scope.query("UPDATE sessions SET title = $2, updated_at = now() WHERE id = $1", [id, title]);
}

/**
 * The root→leaf entries of the branch ending at `leafId` (`null` → `[]`), by a recursive walk over
 * `(session_id, id)` — O(branch length), independent of the session's size.
 */
export async function loadBranch(
  scope: DbScope,
  sessionId: string,
  leafId: string | null,
): Promise<SessionEntry[]> {
  if (leafId === null) return [];
  const rows = await scope.query<{ entry: SessionEntry; depth: number }>(
    `WITH RECURSIVE branch AS (
       SELECT id, parent_id, entry, 0 AS depth FROM session_entries WHERE session_id = $1 AND id = $2
       UNION ALL
       SELECT e.id, e.parent_id, e.entry, b.depth + 1 FROM session_entries e
         JOIN branch b ON e.session_id = $1 AND e.id = b.parent_id
     ) SELECT entry, depth FROM branch ORDER BY depth DESC`,
    [sessionId, leafId],
  );
  return rows.map((r) => r.entry);
}

/**
 * Append one entry under the current leaf (or `parentId` when given) and move the leaf to it, in one
 * transaction. `expectedLeaf` (when not undefined) must equal the stored leaf.
 * @throws LeafMovedError when the leaf moved concurrently; Error when the session does not exist.
 */
export async function appendEntry(
  scope: DbScope,
  sessionId: string,
  entry: NewEntry,
  options: { expectedLeaf?: string | null; now?: Date } = {},
): Promise<SessionEntry> {
  return scope.transaction(async (q) => {
    const [session] = await q<{ leaf_id: string | null }>(
      "SELECT leaf_id FROM sessions WHERE id = $1 FOR UPDATE",
      [sessionId],
    );
    if (!session) throw new Error(`Session ${sessionId} not found`);
    if (options.expectedLeaf !== undefined && options.expectedLeaf !== session.leaf_id) {
      throw new LeafMovedError(sessionId);
    }
    const timestamp = (options.now ?? new Date()).toISOString();
    for (let attempt = 0; attempt < 5; attempt++) {
      const id = generateEntryId(() => false);
      const { type, ...rest } = entry;
      const ordered = { type, id, parentId: session.leaf_id, timestamp, ...rest } as SessionEntry;
      const inserted = await q(
        `INSERT INTO session_entries (session_id, id, parent_id, type, entry) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (session_id, id) DO NOTHING RETURNING id`,
        [sessionId, id, session.leaf_id, entry.type, JSON.stringify(ordered)],
      );
      if (inserted.length === 0) continue;
      await q("UPDATE sessions SET leaf_id = $2, updated_at = now() WHERE id = $1", [sessionId, id]);
      return ordered;
    }
    throw new Error(`Could not allocate a unique entry id in session ${sessionId}`);
  });
}
