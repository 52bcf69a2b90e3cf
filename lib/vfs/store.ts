/**
 * Postgres persistence of a workspace's VFS nodes (`vfs_nodes`), in bulk statements so a request costs
 * a handful of round trips whatever the number of files.
 */
import type { DbScope, Query } from "@/lib/db/client";
import { VfsConflictError } from "./errors";
import { FLUSH_BATCH_BYTES, FLUSH_BATCH_ROWS } from "./limits";
import type { VfsNodeKind } from "./types";

export interface NodeMeta {
  kind: VfsNodeKind;
  mode: number;
  size: number;
  mtimeMs: number;
  /** Row version at load time. */
  version: number;
}

export interface NodeRow extends NodeMeta {
  path: string;
  /** Present only when loaded with data. */
  data?: Uint8Array | null;
}

/** A node to write. `baseVersion` = version read (null: read as absent); `cas: false` = content-addressed, no check. */
export interface PutChange {
  op: "put";
  path: string;
  kind: VfsNodeKind;
  mode: number;
  data: Uint8Array | null;
  mtimeMs: number;
  baseVersion: number | null;
  cas: boolean;
}

export interface DeleteChange {
  op: "delete";
  path: string;
  baseVersion: number;
}

export type NodeChange = PutChange | DeleteChange;

/** What `VfsStore.commit` found besides the changes it applied. */
export interface CommitResult {
  /**
   * Directories the commit was to create (`baseVersion` null) that another writer had already created: path → the
   * stored row's version. They are left as they are and are not a conflict (two `mkdir -p` of one path agree).
   */
  existingDirs: Map<string, number>;
}

/** What the VFS needs from storage. */
export interface VfsStore {
  /**
   * Whose nodes these are ("ws:<workspace>", "wt:<session>"): a process-wide cache keyed by path keeps stores apart
   * by it (lib/vfs/worktree.ts). Absent: an in-memory store of its own.
   */
  readonly identity?: string;
  /** Metadata (no data) of the given paths that exist. */
  getMeta(paths: string[]): Promise<NodeRow[]>;
  /** Metadata of the direct children of each dir. */
  listChildren(dirs: string[]): Promise<NodeRow[]>;
  /** Data of the given files/symlinks. */
  loadData(paths: string[]): Promise<Map<string, Uint8Array>>;
  /** Every node strictly below `prefix` (`"/"` = whole workspace), optionally with data, `except` subtrees pruned. */
  loadTree(prefix: string, options: { withData: boolean; except?: string[] }): Promise<NodeRow[]>;
  /**
   * Apply changes atomically. Creating a directory that exists as a directory is not a conflict
   * (`CommitResult.existingDirs`); a content-addressed put (`cas: false`) never is.
   * @throws VfsConflictError when a checked node's version differs from its `baseVersion`; nothing is written.
   */
  commit(changes: NodeChange[]): Promise<CommitResult>;
  /** Delete `path` and every node below it now, without a version check; resolves to the number deleted. */
  deleteTree(path: string): Promise<number>;
}

/** A `vfs_nodes` / `worktree_nodes` row as the driver returns it. */
export interface RawRow {
  path: string;
  kind: VfsNodeKind;
  mode: number;
  size: string | number;
  mtime_ms: string | number;
  version: string | number;
  data?: Uint8Array | null;
}

/** A stored row as a `NodeRow` (numbers from bigint text, data as a view). */
export function toRow(r: RawRow): NodeRow {
  const row: NodeRow = {
    path: r.path,
    kind: r.kind,
    mode: r.mode,
    size: Number(r.size),
    mtimeMs: Number(r.mtime_ms),
    version: Number(r.version),
  };
  if ("data" in r)
    row.data = r.data ? new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength) : null;
  return row;
}

/** The metadata columns of a node row. */
export const META = "path, kind, mode, size, mtime_ms, version";

/** Paths per statement of the bulk reads and deletes. */
export const CHUNK = 1000;

/** Puts grouped into statements of at most `FLUSH_BATCH_ROWS` rows and `FLUSH_BATCH_BYTES` of content. */
export function* putBatches(puts: PutChange[]): Generator<PutChange[]> {
  let batch: PutChange[] = [];
  let bytes = 0;
  for (const c of puts) {
    const n = c.data?.byteLength ?? 0;
    if (batch.length > 0 && (batch.length >= FLUSH_BATCH_ROWS || bytes + n > FLUSH_BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(c);
    bytes += n;
  }
  if (batch.length > 0) yield batch;
}

/** `ARRAY[$first::bytea, …]`: one bytea parameter per row of `chunk`, numbered from `first`. */
export function dataArray(chunk: PutChange[], first: number): string {
  return `ARRAY[${chunk.map((_, i) => `$${first + i}::bytea`).join(", ")}]::bytea[]`;
}

/** The parent directory of an absolute path (`/` for a top-level one). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** Escape LIKE wildcards in a literal prefix. */
export function likePrefix(prefix: string): string {
  const base = prefix === "/" ? "" : prefix;
  return `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
}

/**
 * Insert `inserts` (sorted by path) in batches; see `PgVfsStore.commit`. A directory another writer created meanwhile
 * (committed: the insert waited for it) is the one wanted and lands in `existingDirs`; a checked file or symlink
 * whose path exists, or a directory where a file or symlink is, is a conflict.
 */
async function insertNodes(
  q: Query,
  ws: string,
  inserts: PutChange[],
): Promise<{ conflicts: string[]; existingDirs: Map<string, number> }> {
  const conflicts: string[] = [];
  const existingDirs = new Map<string, number>();
  const dirsFound: string[] = [];
  for (const chunk of putBatches(inserts)) {
    const rows = await q<{ path: string }>(
      `INSERT INTO vfs_nodes (workspace_id, path, parent, kind, mode, size, data, mtime_ms, version)
       SELECT $1, u.path, u.parent, u.kind, u.mode, u.size, u.data, u.mtime_ms, 1
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::bigint[], ${dataArray(chunk, 8)}, $7::bigint[])
         AS u(path, parent, kind, mode, size, data, mtime_ms)
       ON CONFLICT (workspace_id, path) DO NOTHING RETURNING path`,
      [
        ws,
        chunk.map((c) => c.path),
        chunk.map((c) => parentOf(c.path)),
        chunk.map((c) => c.kind),
        chunk.map((c) => c.mode),
        chunk.map((c) => c.data?.byteLength ?? 0),
        chunk.map((c) => c.mtimeMs),
        ...chunk.map((c) => c.data),
      ],
    );
    const done = new Set(rows.map((r) => r.path));
    for (const c of chunk) {
      if (done.has(c.path) || !c.cas) continue;
      if (c.kind === "dir") dirsFound.push(c.path);
      else conflicts.push(c.path);
    }
  }
  for (let i = 0; i < dirsFound.length; i += CHUNK) {
    const chunk = dirsFound.slice(i, i + CHUNK);
    const rows = await q<{ path: string; version: string | number }>(
      "SELECT path, version FROM vfs_nodes WHERE workspace_id = $1 AND path = ANY($2::text[]) AND kind = 'dir'",
      [ws, chunk],
    );
    for (const r of rows) existingDirs.set(r.path, Number(r.version));
    for (const path of chunk) if (!existingDirs.has(path)) conflicts.push(path);
  }
  return { conflicts, existingDirs };
}

/**
 * `PgVfsStore.commit`'s statements inside the caller's transaction `q` (a worktree store commits its `.git` part
 * with them and its own rows in the same transaction).
 * @throws VfsConflictError as `PgVfsStore.commit`; the caller's transaction must roll back.
 */
export async function commitNodes(q: Query, ws: string, changes: NodeChange[]): Promise<CommitResult> {
  const existingDirs = new Map<string, number>();
  const deletes = changes.filter((c): c is DeleteChange => c.op === "delete");
  const puts = changes.filter((c): c is PutChange => c.op === "put");
  const inserts = puts
    .filter((c) => c.baseVersion === null)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const updates = puts.filter((c) => c.baseVersion !== null);
  const conflicts: string[] = [];
  for (let i = 0; i < deletes.length; i += CHUNK) {
    const chunk = deletes.slice(i, i + CHUNK);
    const rows = await q<{ path: string }>(
      `DELETE FROM vfs_nodes n USING unnest($2::text[], $3::bigint[]) AS d(path, version)
       WHERE n.workspace_id = $1 AND n.path = d.path AND n.version = d.version RETURNING n.path`,
      [ws, chunk.map((d) => d.path), chunk.map((d) => d.baseVersion)],
    );
    const done = new Set(rows.map((r) => r.path));
    for (const d of chunk) if (!done.has(d.path)) conflicts.push(d.path);
  }
  for (const chunk of putBatches(updates)) {
    const rows = await q<{ path: string }>(
      `UPDATE vfs_nodes n SET kind = u.kind, mode = u.mode, size = u.size, data = u.data, mtime_ms = u.mtime_ms,
         version = n.version + 1
       FROM unnest($2::text[], $3::text[], $4::int[], $5::bigint[], ${dataArray(chunk, 8)}, $6::bigint[], $7::bigint[])
         AS u(path, kind, mode, size, data, mtime_ms, version)
       WHERE n.workspace_id = $1 AND n.path = u.path AND n.version = u.version
       RETURNING n.path`,
      [
        ws,
        chunk.map((c) => c.path),
        chunk.map((c) => c.kind),
        chunk.map((c) => c.mode),
        chunk.map((c) => c.data?.byteLength ?? 0),
        chunk.map((c) => c.mtimeMs),
        chunk.map((c) => c.baseVersion),
        ...chunk.map((c) => c.data),
      ],
    );
    const done = new Set(rows.map((r) => r.path));
    for (const c of chunk) if (!done.has(c.path) && c.cas) conflicts.push(c.path);
  }
  const inserted = await insertNodes(q, ws, inserts);
  conflicts.push(...inserted.conflicts);
  for (const [path, version] of inserted.existingDirs) existingDirs.set(path, version);
  if (conflicts.length > 0) throw new VfsConflictError(conflicts);
  return { existingDirs };
}

/** `VfsStore` over Postgres through a `DbScope` (Neon driver). */
export class PgVfsStore implements VfsStore {
  readonly identity: string;

  constructor(
    private readonly scope: DbScope,
    readonly workspaceId: string,
  ) {
    this.identity = `ws:${workspaceId}`;
  }

  async getMeta(paths: string[]): Promise<NodeRow[]> {
    if (paths.length === 0) return [];
    const rows = await this.scope.query<RawRow>(
      `SELECT ${META} FROM vfs_nodes WHERE workspace_id = $1 AND path = ANY($2::text[])`,
      [this.workspaceId, paths],
    );
    return rows.map(toRow);
  }

  async listChildren(dirs: string[]): Promise<NodeRow[]> {
    if (dirs.length === 0) return [];
    const rows = await this.scope.query<RawRow>(
      `SELECT ${META} FROM vfs_nodes WHERE workspace_id = $1 AND parent = ANY($2::text[])`,
      [this.workspaceId, dirs],
    );
    return rows.map(toRow);
  }

  async loadData(paths: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    for (let i = 0; i < paths.length; i += CHUNK) {
      const rows = await this.scope.query<{ path: string; data: Uint8Array | null }>(
        "SELECT path, data FROM vfs_nodes WHERE workspace_id = $1 AND path = ANY($2::text[])",
        [this.workspaceId, paths.slice(i, i + CHUNK)],
      );
      for (const r of rows) {
        const d = r.data ?? new Uint8Array();
        out.set(r.path, new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
      }
    }
    return out;
  }

  async loadTree(prefix: string, options: { withData: boolean; except?: string[] }): Promise<NodeRow[]> {
    const cols = options.withData ? `${META}, data` : META;
    const params: unknown[] = [this.workspaceId, likePrefix(prefix)];
    let exclude = "";
    for (const ex of options.except ?? []) {
      params.push(ex, likePrefix(ex));
      exclude += ` AND path <> $${params.length - 1} AND path NOT LIKE $${params.length}`;
    }
    const rows = await this.scope.query<RawRow>(
      `SELECT ${cols} FROM vfs_nodes WHERE workspace_id = $1 AND path LIKE $2${exclude} ORDER BY path COLLATE "C"`,
      params,
    );
    return rows.map(toRow);
  }

  /**
   * Apply `changes` in one transaction, in bounded statements: deletes in chunks of 1000 paths, puts in
   * batches of at most `FLUSH_BATCH_ROWS` rows and `FLUSH_BATCH_BYTES` of content (a larger file alone),
   * each content passed as its own bytea parameter (binary, never hex text or one giant string).
   * New nodes are inserted in path order, so two writers creating the same directories or git objects wait on
   * each other in one order instead of deadlocking; a new directory that another writer created first is
   * kept as it is (`existingDirs`), a new `cas: false` node that exists is skipped.
   * @throws VfsConflictError when a checked node's version differs from its `baseVersion` (an update or delete
   *   of a node changed since read, a new file or symlink where a node exists, a new directory where a file or
   *   symlink exists); nothing is written.
   */
  async commit(changes: NodeChange[]): Promise<CommitResult> {
    if (changes.length === 0) return { existingDirs: new Map() };
    let result: CommitResult = { existingDirs: new Map() };
    await this.scope.transaction(async (q) => {
      result = await commitNodes(q, this.workspaceId, changes);
    });
    return result;
  }

  /**
   * Delete `path` and every node below it in one statement (no version check).
   * @returns the number of rows deleted.
   */
  async deleteTree(path: string): Promise<number> {
    const rows = await this.scope.query<{ n: string | number }>(
      `WITH d AS (DELETE FROM vfs_nodes WHERE workspace_id = $1 AND (path = $2 OR path LIKE $3) RETURNING 1)
       SELECT count(*) AS n FROM d`,
      [this.workspaceId, path, likePrefix(path)],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
