/**
 * A session's working tree as a `VfsStore` (docs/checkpoints.md, "Sessions and the main line"): git's worktree idea
 * in the VFS, copy-on-write. Paths below the project root (its `.git` excepted) read the session's own node
 * (`worktree_nodes`) when it has one — a `whiteout` row reading as absent — and the project's main working tree
 * (`vfs_nodes`) otherwise; every other path (the shared repository, other projects, the agent dir) is the workspace's.
 * A write below the root lands in the session's rows only, so a new session copies nothing and an idle one costs
 * what it changed. Each read is one statement over both tables; a commit is one transaction over both, serialised per
 * session by an advisory lock that `pinMainChanges` (lib/vfs/worktree-main.ts) also takes before main moves.
 */
import type { DbScope, Query } from "@/lib/db/client";
import { VfsConflictError } from "./errors";
import {
  CHUNK,
  type CommitResult,
  commitNodes,
  dataArray,
  likePrefix,
  META,
  type NodeChange,
  type NodeRow,
  PgVfsStore,
  type PutChange,
  parentOf,
  putBatches,
  type RawRow,
  toRow,
  type VfsStore,
} from "./store";

/** Whose working tree, and where it is: the session and its project's root (absolute VFS path, not `/`). */
export interface WorktreeTarget {
  sessionId: string;
  root: string;
}

type OverlayRaw = Omit<RawRow, "kind"> & { kind: RawRow["kind"] | "whiteout" };

/** Whether absolute `path` belongs to the working tree below `root` (its `.git` does not). */
export function inWorktree(root: string, path: string): boolean {
  if (!path.startsWith(`${root}/`)) return false;
  const rel = path.slice(root.length + 1);
  return rel !== ".git" && !rel.startsWith(".git/");
}

/** Take the session's working-tree lock for the rest of transaction `q`. */
export async function lockWorktree(q: Query, sessionId: string): Promise<void> {
  await q("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", [`worktree:${sessionId}`]);
}

/** The rows of the union statement, whiteouts dropped. */
function visible(rows: OverlayRaw[]): NodeRow[] {
  return rows.filter((r) => r.kind !== "whiteout").map((r) => toRow(r as RawRow));
}

/** The session's rows matching `where` over the main rows matching it that the session has no row for. */
function unionSql(cols: string, where: string, order = ""): string {
  const union = `SELECT ${cols} FROM worktree_nodes w WHERE w.session_id = $1 AND ${where.replaceAll("%", "w.")}
    UNION ALL
    SELECT ${cols} FROM vfs_nodes v WHERE v.workspace_id = $2 AND ${where.replaceAll("%", "v.")}
      AND NOT EXISTS (SELECT 1 FROM worktree_nodes o WHERE o.session_id = $1 AND o.path = v.path)`;
  return order ? `SELECT * FROM (${union}) t${order}` : union;
}

/** `VfsStore` of one session's working tree over its workspace (see the module docstring). */
export class WorktreeVfsStore implements VfsStore {
  private readonly base: PgVfsStore;
  readonly identity: string;

  constructor(
    private readonly scope: DbScope,
    readonly workspaceId: string,
    readonly target: WorktreeTarget,
  ) {
    this.base = new PgVfsStore(scope, workspaceId);
    this.identity = `wt:${target.sessionId}`;
  }

  private union(cols: string, where: string, params: unknown[], order = ""): Promise<OverlayRaw[]> {
    return this.scope.query<OverlayRaw>(unionSql(cols, where, order), [
      this.target.sessionId,
      this.workspaceId,
      ...params,
    ]);
  }

  async getMeta(paths: string[]): Promise<NodeRow[]> {
    if (paths.length === 0) return [];
    return visible(await this.union(META, "%path = ANY($3::text[])", [paths]));
  }

  async listChildren(dirs: string[]): Promise<NodeRow[]> {
    if (dirs.length === 0) return [];
    return visible(await this.union(META, "%parent = ANY($3::text[])", [dirs]));
  }

  async loadData(paths: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    for (let i = 0; i < paths.length; i += CHUNK) {
      const rows = visible(
        await this.union(`${META}, data`, "%path = ANY($3::text[])", [paths.slice(i, i + CHUNK)]),
      );
      for (const r of rows) out.set(r.path, r.data ?? new Uint8Array());
    }
    return out;
  }

  async loadTree(prefix: string, options: { withData: boolean; except?: string[] }): Promise<NodeRow[]> {
    const cols = options.withData ? `${META}, data` : META;
    const params: unknown[] = [likePrefix(prefix)];
    let where = "%path LIKE $3";
    for (const ex of options.except ?? []) {
      params.push(ex, likePrefix(ex));
      where += ` AND %path <> $${params.length + 1} AND %path NOT LIKE $${params.length + 2}`;
    }
    return visible(await this.union(cols, where, params, ` ORDER BY path COLLATE "C"`));
  }

  /**
   * Apply `changes` in one transaction: those below the root to the session's rows (`commitOverlay`), the rest to
   * the workspace's (`commitNodes`), under the session's working-tree lock.
   * @throws VfsConflictError as `PgVfsStore.commit`, for either part; nothing is written.
   */
  async commit(changes: NodeChange[]): Promise<CommitResult> {
    const existingDirs = new Map<string, number>();
    if (changes.length === 0) return { existingDirs };
    const mine = changes.filter((c) => inWorktree(this.target.root, c.path));
    const shared = changes.filter((c) => !inWorktree(this.target.root, c.path));
    await this.scope.transaction(async (q) => {
      existingDirs.clear();
      await lockWorktree(q, this.target.sessionId);
      const conflicts: string[] = [];
      try {
        for (const [p, v] of (await commitNodes(q, this.workspaceId, shared)).existingDirs)
          existingDirs.set(p, v);
      } catch (error) {
        if (!(error instanceof VfsConflictError)) throw error;
        conflicts.push(...error.paths);
      }
      conflicts.push(
        ...(await commitOverlay(q, this.workspaceId, this.target.sessionId, mine, existingDirs)),
      );
      if (conflicts.length > 0) throw new VfsConflictError(conflicts);
    });
    return { existingDirs };
  }

  /**
   * Delete `path` and everything below it now. Below the root: the session's rows there go, and main's nodes there
   * get whiteouts. At or above the root (a project removed): the workspace's rows and every session's rows below.
   * @returns the number of nodes that were visible and are gone.
   */
  async deleteTree(path: string): Promise<number> {
    if (!inWorktree(this.target.root, path)) {
      // Only the rows of this workspace's sessions: roots are alike across workspaces ("/demo").
      await this.scope.query(
        `DELETE FROM worktree_nodes w USING sessions s, projects p
         WHERE w.session_id = s.id AND s.project_id = p.id AND p.workspace_id = $3 AND (w.path = $1 OR w.path LIKE $2)`,
        [path, likePrefix(path), this.workspaceId],
      );
      return this.base.deleteTree(path);
    }
    let count = 0;
    await this.scope.transaction(async (q) => {
      await lockWorktree(q, this.target.sessionId);
      const seen = await q<{ n: string | number }>(
        `SELECT count(*) AS n FROM (${unionSql("path, kind", "(%path = $3 OR %path LIKE $4)")}) t WHERE kind <> 'whiteout'`,
        [this.target.sessionId, this.workspaceId, path, likePrefix(path)],
      );
      count = Number(seen[0]?.n ?? 0);
      await q("DELETE FROM worktree_nodes WHERE session_id = $1 AND (path = $2 OR path LIKE $3)", [
        this.target.sessionId,
        path,
        likePrefix(path),
      ]);
      await q(
        `INSERT INTO worktree_nodes (session_id, path, parent, kind, mode, size, data, mtime_ms, version)
         SELECT $1, path, parent, 'whiteout', 0, 0, NULL, mtime_ms, version + 1
         FROM vfs_nodes WHERE workspace_id = $2 AND (path = $3 OR path LIKE $4)`,
        [this.target.sessionId, this.workspaceId, path, likePrefix(path)],
      );
    });
    return count;
  }
}

interface Current {
  present: boolean;
  kind?: string;
  /** Version as a reader sees it (0: never existed). */
  version: number;
  /** Whether main has the path (a delete then needs a whiteout). */
  inMain: boolean;
}

/** The state of each of `paths` as the session sees it, read under its lock. */
async function currentState(
  q: Query,
  ws: string,
  sessionId: string,
  paths: string[],
): Promise<Map<string, Current>> {
  const own = await q<{ path: string; kind: string; version: string | number }>(
    "SELECT path, kind, version FROM worktree_nodes WHERE session_id = $1 AND path = ANY($2::text[])",
    [sessionId, paths],
  );
  const main = await q<{ path: string; kind: string; version: string | number }>(
    "SELECT path, kind, version FROM vfs_nodes WHERE workspace_id = $1 AND path = ANY($2::text[])",
    [ws, paths],
  );
  const out = new Map<string, Current>();
  for (const r of main)
    out.set(r.path, { present: true, kind: r.kind, version: Number(r.version), inMain: true });
  for (const r of own) {
    const inMain = out.has(r.path);
    const present = r.kind !== "whiteout";
    out.set(r.path, { present, kind: r.kind, version: Number(r.version), inMain });
  }
  return out;
}

/**
 * The session's part of a commit (see `WorktreeVfsStore.commit`): each change checked against what the session sees
 * (its row, else main's) as `PgVfsStore.commit` checks, then written to the session's rows with the next version.
 * @returns the conflicting paths (the caller throws); directories found existing are added to `existingDirs`.
 */
async function commitOverlay(
  q: Query,
  ws: string,
  sessionId: string,
  changes: NodeChange[],
  existingDirs: Map<string, number>,
): Promise<string[]> {
  if (changes.length === 0) return [];
  const state = await currentState(
    q,
    ws,
    sessionId,
    changes.map((c) => c.path),
  );
  const conflicts: string[] = [];
  const puts: OverlayPut[] = [];
  const gone: string[] = [];
  for (const c of changes) {
    const cur = state.get(c.path) ?? { present: false, version: 0, inMain: false };
    if (c.op === "delete") {
      if (!cur.present || cur.version !== c.baseVersion) conflicts.push(c.path);
      else if (cur.inMain)
        puts.push({
          change: { ...c, op: "put", kind: "dir", mode: 0, data: null, mtimeMs: Date.now(), cas: true },
          version: cur.version + 1,
          whiteout: true,
        });
      else gone.push(c.path);
    } else if (c.baseVersion === null && cur.present) {
      if (c.kind === "dir" && cur.kind === "dir") existingDirs.set(c.path, cur.version);
      else if (c.cas) conflicts.push(c.path);
    } else if (c.baseVersion !== null && (!cur.present || cur.version !== c.baseVersion)) {
      if (c.cas) conflicts.push(c.path);
    } else puts.push({ change: c, version: cur.version + 1 });
  }
  if (conflicts.length > 0) return conflicts;
  for (let i = 0; i < gone.length; i += CHUNK)
    await q("DELETE FROM worktree_nodes WHERE session_id = $1 AND path = ANY($2::text[])", [
      sessionId,
      gone.slice(i, i + CHUNK),
    ]);
  await upsertOverlay(q, sessionId, puts);
  return [];
}

interface OverlayPut {
  change: PutChange;
  /** The row's version after the write. */
  version: number;
  /** A whiteout: main's node deleted in this working tree. */
  whiteout?: boolean;
}

/** Write `puts` as the session's rows (a whiteout: `mode` 0 and no data), in bounded batches. */
async function upsertOverlay(q: Query, sessionId: string, puts: OverlayPut[]) {
  const byChange = new Map(puts.map((p) => [p.change, p]));
  for (const chunk of putBatches(puts.map((p) => p.change))) {
    await q(
      `INSERT INTO worktree_nodes (session_id, path, parent, kind, mode, size, data, mtime_ms, version)
       SELECT $1, u.path, u.parent, u.kind, u.mode, u.size, u.data, u.mtime_ms, u.version
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::bigint[], ${dataArray(chunk, 9)}, $7::bigint[],
         $8::bigint[]) AS u(path, parent, kind, mode, size, data, mtime_ms, version)
       ON CONFLICT (session_id, path) DO UPDATE SET parent = EXCLUDED.parent, kind = EXCLUDED.kind,
         mode = EXCLUDED.mode, size = EXCLUDED.size, data = EXCLUDED.data, mtime_ms = EXCLUDED.mtime_ms,
         version = EXCLUDED.version`,
      [
        sessionId,
        chunk.map((c) => c.path),
        chunk.map((c) => parentOf(c.path)),
        chunk.map((c) => (byChange.get(c)?.whiteout ? "whiteout" : c.kind)),
        chunk.map((c) => c.mode),
        chunk.map((c) => c.data?.byteLength ?? 0),
        chunk.map((c) => c.mtimeMs),
        chunk.map((c) => byChange.get(c)?.version ?? 1),
        ...chunk.map((c) => c.data),
      ],
    );
  }
}
