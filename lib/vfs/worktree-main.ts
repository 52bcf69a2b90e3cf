/**
 * The project's main line as a `VfsStore`: `vfs_nodes` below the project root is main's working tree, and every
 * session's working tree reads through it where the session changed nothing (lib/vfs/worktree-store.ts). So main may
 * move only after each session that has no row of its own at a path about to change got main's node there as it
 * stands — copy-on-write from the origin's side, as a snapshot volume copies a block before its origin overwrites it.
 * `MainLineVfsStore.commit` does that in the transaction that writes main, under every session's working-tree lock.
 */
import type { DbScope, Query } from "@/lib/db/client";
import { type CommitResult, commitNodes, type NodeChange, PgVfsStore } from "./store";
import { inWorktree, lockWorktree } from "./worktree-store";

/**
 * Keep main's current nodes at `paths` (absolute, below `root`) in every working tree of project `projectId` that has
 * no row of its own there: a copy of main's node, or a whiteout where main has none. Run in the transaction that then
 * changes main; takes each session's lock in id order (no deadlock with a session's own commit, which takes one).
 * @returns the number of rows written (units: session × path).
 */
export async function pinMainChanges(
  q: Query,
  workspaceId: string,
  projectId: string,
  paths: string[],
): Promise<number> {
  if (paths.length === 0) return 0;
  const sessions = await q<{ id: string }>("SELECT id FROM sessions WHERE project_id = $1 ORDER BY id", [
    projectId,
  ]);
  if (sessions.length === 0) return 0;
  for (const s of sessions) await lockWorktree(q, s.id);
  const copied = await q<{ n: string | number }>(
    `WITH i AS (
       INSERT INTO worktree_nodes (session_id, path, parent, kind, mode, size, data, mtime_ms, version)
       SELECT s.id, v.path, v.parent, v.kind, v.mode, v.size, v.data, v.mtime_ms, v.version
       FROM sessions s JOIN vfs_nodes v ON v.workspace_id = $2 AND v.path = ANY($3::text[])
       WHERE s.project_id = $1
       ON CONFLICT (session_id, path) DO NOTHING RETURNING 1)
     SELECT count(*) AS n FROM i`,
    [projectId, workspaceId, paths],
  );
  const hidden = await q<{ n: string | number }>(
    `WITH i AS (
       INSERT INTO worktree_nodes (session_id, path, parent, kind, mode, size, data, mtime_ms, version)
       SELECT s.id, p.path, regexp_replace(p.path, '/[^/]*$', ''), 'whiteout', 0, 0, NULL, 0, 1
       FROM sessions s CROSS JOIN unnest($3::text[]) AS p(path)
       WHERE s.project_id = $1
         AND NOT EXISTS (SELECT 1 FROM vfs_nodes v WHERE v.workspace_id = $2 AND v.path = p.path)
       ON CONFLICT (session_id, path) DO NOTHING RETURNING 1)
     SELECT count(*) AS n FROM i`,
    [projectId, workspaceId, paths],
  );
  return Number(copied[0]?.n ?? 0) + Number(hidden[0]?.n ?? 0);
}

/** Where main is: the project and its root (absolute VFS path). */
export interface MainLineTarget {
  projectId: string;
  root: string;
}

/** `VfsStore` that writes the project's main working tree, pinning it in every session first (module docstring). */
export class MainLineVfsStore extends PgVfsStore {
  constructor(
    private readonly db: DbScope,
    workspaceId: string,
    readonly target: MainLineTarget,
  ) {
    super(db, workspaceId);
  }

  /**
   * `PgVfsStore.commit`, after `pinMainChanges` of the changed paths below the root, in one transaction.
   * @throws VfsConflictError as `PgVfsStore.commit`; nothing is written (nor pinned).
   */
  override async commit(changes: NodeChange[]): Promise<CommitResult> {
    if (changes.length === 0) return { existingDirs: new Map() };
    const moving = changes.map((c) => c.path).filter((p) => inWorktree(this.target.root, p));
    let result: CommitResult = { existingDirs: new Map() };
    await this.db.transaction(async (q) => {
      await pinMainChanges(q, this.workspaceId, this.target.projectId, moving);
      result = await commitNodes(q, this.workspaceId, changes);
    });
    return result;
  }

  /** Delete `path` and below now; below the root, pinned in every session first. */
  override async deleteTree(path: string): Promise<number> {
    if (!inWorktree(this.target.root, path)) return super.deleteTree(path);
    let count = 0;
    await this.db.transaction(async (q) => {
      const rows = await q<{ path: string }>(
        "SELECT path FROM vfs_nodes WHERE workspace_id = $1 AND (path = $2 OR starts_with(path, $3))",
        [this.workspaceId, path, `${path}/`],
      );
      await pinMainChanges(
        q,
        this.workspaceId,
        this.target.projectId,
        rows.map((r) => r.path),
      );
      const gone = await q<{ path: string }>(
        "DELETE FROM vfs_nodes WHERE workspace_id = $1 AND path = ANY($2::text[]) RETURNING path",
        [this.workspaceId, rows.map((r) => r.path)],
      );
      count = gone.length;
    });
    return count;
  }
}
