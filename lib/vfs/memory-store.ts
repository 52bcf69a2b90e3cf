/**
 * An in-memory `VfsStore`: a workspace without Postgres (the context preview over a host directory, tests).
 * Same contract and semantics as `PgVfsStore`: rows carry versions (1 on insert, +1 per update), `commit`
 * checks every `baseVersion` and writes nothing on a conflict, content-addressed puts (`cas: false`) never
 * conflict, trees come back in byte order of their UTF-8 paths (Postgres `COLLATE "C"`). Data is copied in
 * and out, so callers never share buffers with the store.
 */
import { VfsConflictError } from "./errors";
import { normalizePosix } from "./paths";
import type { CommitResult, DeleteChange, NodeChange, NodeRow, PutChange, VfsStore } from "./store";
import type { VfsNodeKind } from "./types";

const DIR_MODE = 0o040000;
const FILE_MODE = 0o100644;
const LINK_MODE = 0o120000;
const encoder = new TextEncoder();

interface StoredNode {
  kind: VfsNodeKind;
  mode: number;
  data: Uint8Array | null;
  mtimeMs: number;
  version: number;
}

/** A node to seed a {@link MemoryVfsStore} with; parent directories are created as needed. */
export interface MemorySeedNode {
  /** Absolute, normalized VFS path (not `/`). */
  path: string;
  /** Default `"file"`. */
  kind?: VfsNodeKind;
  /** File bytes or text, or a symlink's target. Ignored for directories. */
  data?: Uint8Array | string;
  /** Default by kind: 0o100644 files, 0o040000 dirs, 0o120000 symlinks. */
  mode?: number;
  /** Default: the store's clock. */
  mtimeMs?: number;
}

/** A fresh copy (a Node `Buffer`'s `slice()` would share memory). */
function copy(data: Uint8Array): Uint8Array {
  return new Uint8Array(data);
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** Order of Postgres `COLLATE "C"` on UTF-8 text: by Unicode code point (UTF-16 order differs above U+D7FF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function under(path: string, prefix: string): boolean {
  return prefix === "/" ? path !== "/" : path.startsWith(`${prefix}/`);
}

/** `VfsStore` in memory (see the module comment). Not shared between processes; lost when dropped. */
export class MemoryVfsStore implements VfsStore {
  private readonly nodes = new Map<string, StoredNode>();
  private readonly childrenOf = new Map<string, Set<string>>();
  private readonly now: () => number;

  /**
   * @param seed initial nodes (see {@link seed}).
   * @param options.now clock for seeded nodes without `mtimeMs`, epoch ms (default `Date.now`).
   * @throws Error as {@link seed} does.
   */
  constructor(seed: readonly MemorySeedNode[] = [], options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
    this.seed(seed);
  }

  /**
   * Add nodes directly (version 1, no conflict check), creating missing parent directories. A later seed
   * of an existing path replaces it (version + 1).
   * @throws Error `Invalid VFS path: <path>` for a relative, unnormalized or root path, or
   *   `Not a directory: <path>` when a parent is a file or symlink.
   */
  seed(nodes: readonly MemorySeedNode[]): void {
    for (const node of nodes) {
      const path = node.path;
      if (!path.startsWith("/") || path === "/" || normalizePosix(path) !== path)
        throw new Error(`Invalid VFS path: ${path}`);
      const mtimeMs = node.mtimeMs ?? this.now();
      this.ensureDir(parentOf(path), mtimeMs);
      const kind = node.kind ?? "file";
      const data =
        kind === "dir"
          ? null
          : typeof node.data === "string"
            ? encoder.encode(node.data)
            : copy(node.data ?? new Uint8Array());
      const mode = node.mode ?? (kind === "dir" ? DIR_MODE : kind === "symlink" ? LINK_MODE : FILE_MODE);
      const previous = this.nodes.get(path);
      this.set(path, { kind, mode, data, mtimeMs, version: (previous?.version ?? 0) + 1 });
    }
  }

  /** Number of nodes (directories included). */
  get size(): number {
    return this.nodes.size;
  }

  private ensureDir(dir: string, mtimeMs: number): void {
    if (dir === "/") return;
    const existing = this.nodes.get(dir);
    if (existing) {
      if (existing.kind !== "dir") throw new Error(`Not a directory: ${dir}`);
      return;
    }
    this.ensureDir(parentOf(dir), mtimeMs);
    this.set(dir, { kind: "dir", mode: DIR_MODE, data: null, mtimeMs, version: 1 });
  }

  private set(path: string, node: StoredNode): void {
    this.nodes.set(path, node);
    const parent = parentOf(path);
    let set = this.childrenOf.get(parent);
    if (!set) {
      set = new Set();
      this.childrenOf.set(parent, set);
    }
    set.add(path);
  }

  private remove(path: string): void {
    this.nodes.delete(path);
    this.childrenOf.get(parentOf(path))?.delete(path);
  }

  private row(path: string, node: StoredNode, withData: boolean): NodeRow {
    const row: NodeRow = {
      path,
      kind: node.kind,
      mode: node.mode,
      size: node.data?.byteLength ?? 0,
      mtimeMs: node.mtimeMs,
      version: node.version,
    };
    if (withData) row.data = node.data ? copy(node.data) : null;
    return row;
  }

  async getMeta(paths: string[]): Promise<NodeRow[]> {
    const out: NodeRow[] = [];
    for (const path of new Set(paths)) {
      const node = this.nodes.get(path);
      if (node) out.push(this.row(path, node, false));
    }
    return out;
  }

  async listChildren(dirs: string[]): Promise<NodeRow[]> {
    const out: NodeRow[] = [];
    for (const dir of new Set(dirs))
      for (const path of this.childrenOf.get(dir) ?? [])
        out.push(this.row(path, this.nodes.get(path) as StoredNode, false));
    return out;
  }

  async loadData(paths: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    for (const path of paths) {
      const node = this.nodes.get(path);
      if (node) out.set(path, node.data ? copy(node.data) : new Uint8Array());
    }
    return out;
  }

  async loadTree(prefix: string, options: { withData: boolean; except?: string[] }): Promise<NodeRow[]> {
    const except = options.except ?? [];
    const paths = [...this.nodes.keys()]
      .filter((p) => under(p, prefix) && !except.some((ex) => p === ex || under(p, ex)))
      .sort(compareCodePoints);
    return paths.map((p) => this.row(p, this.nodes.get(p) as StoredNode, options.withData));
  }

  /**
   * Apply `changes` atomically, in `PgVfsStore`'s order: deletes, updates, inserts. A new directory where a
   * directory exists is left as it is and reported in `existingDirs`, as Postgres does.
   * @throws VfsConflictError listing every path whose version differs from its `baseVersion` (a delete or
   *   update of a missing or changed node, an insert over an existing node); nothing is written then.
   *   Puts with `cas: false` that cannot apply are skipped silently, as Postgres does.
   */
  async commit(changes: NodeChange[]): Promise<CommitResult> {
    const existingDirs = new Map<string, number>();
    if (changes.length === 0) return { existingDirs };
    const deletes = changes.filter((c): c is DeleteChange => c.op === "delete");
    const puts = changes.filter((c): c is PutChange => c.op === "put");
    const updates = puts.filter((c) => c.baseVersion !== null);
    const inserts = puts.filter((c) => c.baseVersion === null);
    // Simulate on a view of versions so the order of operations inside the commit is honoured.
    const versions = new Map<string, number | null>();
    const versionOf = (path: string) =>
      versions.has(path) ? (versions.get(path) ?? null) : (this.nodes.get(path)?.version ?? null);
    const conflicts: string[] = [];
    const applied: (() => void)[] = [];
    for (const d of deletes) {
      if (versionOf(d.path) !== d.baseVersion) {
        conflicts.push(d.path);
        continue;
      }
      versions.set(d.path, null);
      applied.push(() => this.remove(d.path));
    }
    for (const c of updates) {
      const current = versionOf(c.path);
      if (current === null || current !== c.baseVersion) {
        if (c.cas) conflicts.push(c.path);
        continue;
      }
      versions.set(c.path, current + 1);
      applied.push(() => this.put(c, current + 1));
    }
    for (const c of inserts) {
      const current = versionOf(c.path);
      if (current !== null) {
        if (c.kind === "dir" && this.nodes.get(c.path)?.kind === "dir") existingDirs.set(c.path, current);
        else if (c.cas) conflicts.push(c.path);
        continue;
      }
      versions.set(c.path, 1);
      applied.push(() => this.put(c, 1));
    }
    if (conflicts.length > 0) throw new VfsConflictError(conflicts);
    for (const apply of applied) apply();
    return { existingDirs };
  }

  /** Delete `path` and every node below it (no version check); the number deleted. */
  async deleteTree(path: string): Promise<number> {
    let count = 0;
    for (const p of [...this.nodes.keys()]) {
      if (p !== path && !under(p, path)) continue;
      this.remove(p);
      this.childrenOf.delete(p);
      count++;
    }
    return count;
  }

  private put(c: PutChange, version: number): void {
    this.set(c.path, {
      kind: c.kind,
      mode: c.mode,
      data: c.kind === "dir" ? null : copy(c.data ?? new Uint8Array()),
      mtimeMs: c.mtimeMs,
      version,
    });
  }
}
