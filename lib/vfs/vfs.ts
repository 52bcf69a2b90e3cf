/**
 * `Vfs`: a workspace filesystem backed by Postgres (`VfsStore`), with a per-operation cache.
 *
 * Reads load lazily (metadata by path or by directory, data on first read, or a whole subtree in one
 * query with `preload`). Writes stay in memory until `flush()`, which commits every change in one
 * transaction with optimistic concurrency: a node changed by someone else since it was read makes the
 * flush fail with `VfsConflictError` and write nothing. Loose git objects (`.git/objects/xx/…`) are
 * content-addressed and written without a version check.
 */
import { fsErrors, VfsError } from "./errors";
import { basenamePosix, dirnamePosix, normalizePosix } from "./paths";
import type { NodeChange, NodeMeta, VfsStore } from "./store";
import type { FileSystem, VfsNodeKind, VfsStat, WalkEntry } from "./types";

const DIR_MODE = 0o040000;
const FILE_MODE = 0o100644;
const LINK_MODE = 0o120000;
const MAX_LINK_HOPS = 40;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Entry {
  /** null = known absent. */
  meta: (Omit<NodeMeta, "version"> & { version: number | null }) | null;
  data?: Uint8Array;
  /** Version as read from the store (null = absent there). */
  base: number | null;
  dirty: boolean;
}

export interface VfsOptions {
  /** Largest file accepted by `writeFile`, bytes (default 50 MiB). */
  maxFileBytes?: number;
  /** Clock for mtimes, epoch ms. */
  now?: () => number;
}

function isObjectPath(path: string): boolean {
  return /\/\.git\/objects\/(?:[0-9a-f]{2}\/[0-9a-f]{38}|pack\/pack-[0-9a-f]{40}\.(?:pack|idx))$/.test(path);
}

/** The Postgres-backed workspace filesystem. Not safe for concurrent use by two requests; make one per request. */
export class Vfs implements FileSystem {
  private readonly entries = new Map<string, Entry>();
  private readonly children = new Map<string, Set<string>>();
  private readonly listed = new Set<string>();
  private readonly maxFileBytes: number;
  private flushing: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;

  constructor(
    readonly store: VfsStore,
    options: VfsOptions = {},
  ) {
    this.maxFileBytes = options.maxFileBytes ?? 50 * 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.entries.set("/", {
      meta: { kind: "dir", mode: DIR_MODE, size: 0, mtimeMs: 0, version: null },
      base: null,
      dirty: false,
    });
  }

  // ---- cache plumbing -------------------------------------------------------------------------

  private setEntry(path: string, entry: Entry): void {
    const previous = this.entries.get(path);
    this.entries.set(path, entry);
    if (path === "/") return;
    const parent = dirnamePosix(path);
    const name = basenamePosix(path);
    let set = this.children.get(parent);
    if (!set) {
      set = new Set();
      this.children.set(parent, set);
    }
    if (entry.meta) set.add(name);
    else if (previous?.meta) set.delete(name);
  }

  /** Merge rows from the store without clobbering local changes. */
  private absorb(
    rows: {
      path: string;
      kind: VfsNodeKind;
      mode: number;
      size: number;
      mtimeMs: number;
      version: number;
      data?: Uint8Array | null;
    }[],
  ): void {
    for (const r of rows) {
      const current = this.entries.get(r.path);
      if (current?.dirty) continue;
      if (current?.meta && current.base === r.version) {
        if (r.data && current.data === undefined) current.data = r.data;
        continue;
      }
      const entry: Entry = {
        meta: { kind: r.kind, mode: r.mode, size: r.size, mtimeMs: r.mtimeMs, version: r.version },
        base: r.version,
        dirty: false,
      };
      if (r.data) entry.data = r.data;
      this.setEntry(r.path, entry);
    }
  }

  /** True when the cache alone proves `path` absent: an ancestor is absent or a file, or a listed dir lacks the next component. */
  private knownAbsent(path: string): boolean {
    for (let child = path, p = dirnamePosix(path); ; child = p, p = dirnamePosix(p)) {
      if (child !== path) {
        const c = this.entries.get(child);
        if (c) return !c.meta || c.meta.kind === "file";
      }
      if (this.listed.has(p)) return true;
      if (p === "/") return false;
    }
  }

  private async entry(path: string): Promise<Entry> {
    const known = this.entries.get(path);
    if (known) return known;
    if (this.knownAbsent(path)) {
      const absent: Entry = { meta: null, base: null, dirty: false };
      this.entries.set(path, absent);
      return absent;
    }
    const rows = await this.store.getMeta([path]);
    this.absorb(rows);
    if (!this.entries.has(path)) this.entries.set(path, { meta: null, base: null, dirty: false });
    return this.entries.get(path)!;
  }

  private async ensureListed(dir: string): Promise<void> {
    if (this.listed.has(dir)) return;
    this.absorb(await this.store.listChildren([dir]));
    this.listed.add(dir);
  }

  /** Resolve symlinks in every component of `path` (the last one too when `followLast`). */
  private async realpath(path: string, followLast: boolean): Promise<string> {
    let hops = 0;
    let pending = normalizePosix(path).split("/").filter(Boolean);
    let current = "/";
    while (pending.length > 0) {
      const next = current === "/" ? `/${pending[0]}` : `${current}/${pending[0]}`;
      pending = pending.slice(1);
      const e = await this.entry(next);
      if (e.meta?.kind === "symlink" && (pending.length > 0 || followLast)) {
        if (++hops > MAX_LINK_HOPS) throw fsErrors.loop(path);
        const target = decoder.decode(await this.dataOf(next, e));
        const resolved = normalizePosix(target.startsWith("/") ? target : `${current}/${target}`);
        pending = [...resolved.split("/").filter(Boolean), ...pending];
        current = "/";
        continue;
      }
      if (pending.length > 0 && e.meta && e.meta.kind !== "dir") throw fsErrors.notDir(path, "stat");
      if (pending.length > 0 && !e.meta) return `${next}/${pending.join("/")}`;
      current = next;
    }
    return current;
  }

  private async dataOf(path: string, e: Entry): Promise<Uint8Array> {
    if (e.data === undefined) {
      const loaded = await this.store.loadData([path]);
      e.data = loaded.get(path) ?? new Uint8Array();
    }
    return e.data;
  }

  private statOf(e: Entry): VfsStat {
    const m = e.meta!;
    return { kind: m.kind, mode: m.mode, size: m.size, mtimeMs: m.mtimeMs };
  }

  private put(path: string, kind: VfsNodeKind, mode: number, data: Uint8Array | undefined): void {
    const previous = this.entries.get(path);
    const entry: Entry = {
      meta: {
        kind,
        mode,
        size: data?.byteLength ?? 0,
        mtimeMs: this.now(),
        version: previous?.meta?.version ?? null,
      },
      base: previous ? previous.base : null,
      dirty: true,
    };
    if (data) entry.data = data;
    this.setEntry(path, entry);
  }

  private async mkdirp(dir: string): Promise<void> {
    const e = await this.entry(dir);
    if (e.meta) {
      if (e.meta.kind === "dir") return;
      if (e.meta.kind === "symlink") {
        const st = await this.stat(dir);
        if (st.kind === "dir") return;
      }
      throw fsErrors.notDir(dir, "mkdir");
    }
    await this.mkdirp(dirnamePosix(dir));
    this.put(dir, "dir", DIR_MODE, undefined);
    this.listed.add(dir);
  }

  // ---- FileSystem -----------------------------------------------------------------------------

  async readFile(path: string): Promise<Uint8Array> {
    const real = await this.realpath(path, true);
    const e = await this.entry(real);
    if (!e.meta) throw fsErrors.notFound(path);
    if (e.meta.kind === "dir") throw fsErrors.isDir(path, "read");
    return this.dataOf(real, e);
  }

  async readText(path: string): Promise<string> {
    return decoder.decode(await this.readFile(path));
  }

  async writeFile(path: string, data: Uint8Array | string, options: { mode?: number } = {}): Promise<void> {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    if (bytes.byteLength > this.maxFileBytes)
      throw fsErrors.tooBig(path, bytes.byteLength, this.maxFileBytes);
    const real = await this.realpath(path, true);
    const e = await this.entry(real);
    if (e.meta?.kind === "dir") throw fsErrors.isDir(path, "open");
    await this.mkdirp(dirnamePosix(real));
    const mode = options.mode ?? (e.meta?.kind === "file" ? e.meta.mode : FILE_MODE);
    this.put(real, "file", mode, bytes);
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const p = normalizePosix(path);
    const e = await this.entry(p);
    if (e.meta) {
      if (options.recursive && (await this.stat(p)).kind === "dir") return;
      throw fsErrors.exists(path);
    }
    if (options.recursive) return this.mkdirp(p);
    const parent = await this.entry(dirnamePosix(p));
    if (!parent.meta) throw fsErrors.notFound(path, "mkdir");
    if (parent.meta.kind !== "dir") throw fsErrors.notDir(path, "mkdir");
    this.put(p, "dir", DIR_MODE, undefined);
    this.listed.add(p);
  }

  async readdir(path: string): Promise<string[]> {
    const real = await this.realpath(path, true);
    const e = await this.entry(real);
    if (!e.meta) throw fsErrors.notFound(path, "scandir");
    if (e.meta.kind !== "dir") throw fsErrors.notDir(path);
    await this.ensureListed(real);
    return [...(this.children.get(real) ?? [])].sort();
  }

  async stat(path: string): Promise<VfsStat> {
    const real = await this.realpath(path, true);
    const e = await this.entry(real);
    if (!e.meta) throw fsErrors.notFound(path, "stat");
    return this.statOf(e);
  }

  async lstat(path: string): Promise<VfsStat> {
    const p = normalizePosix(path);
    const real =
      p === "/"
        ? p
        : `${await this.realpath(dirnamePosix(p), true)}/${basenamePosix(p)}`.replace(/^\/\//, "/");
    const e = await this.entry(real);
    if (!e.meta) throw fsErrors.notFound(path, "lstat");
    return this.statOf(e);
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.stat(path);
      return true;
    } catch (error) {
      if (error instanceof VfsError && (error.code === "ENOENT" || error.code === "ENOTDIR")) return false;
      throw error;
    }
  }

  async unlink(path: string): Promise<void> {
    const p = normalizePosix(path);
    const e = await this.entry(p);
    if (!e.meta) throw fsErrors.notFound(path, "unlink");
    if (e.meta.kind === "dir") throw fsErrors.isDir(path, "unlink");
    this.setEntry(p, { meta: null, base: e.base, dirty: true });
  }

  async rmdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const p = normalizePosix(path);
    if (p === "/") throw new VfsError("EACCES", "EACCES: cannot remove the workspace root", p);
    const e = await this.entry(p);
    if (!e.meta) throw fsErrors.notFound(path, "rmdir");
    if (e.meta.kind !== "dir") throw fsErrors.notDir(path, "rmdir");
    const names = await this.readdir(p);
    if (names.length > 0 && !options.recursive) throw fsErrors.notEmpty(path);
    for (const name of names) {
      const child = `${p}/${name}`;
      const ce = await this.entry(child);
      if (ce.meta?.kind === "dir") await this.rmdir(child, { recursive: true });
      else await this.unlink(child);
    }
    this.setEntry(p, { meta: null, base: e.base, dirty: true });
  }

  async rename(from: string, to: string): Promise<void> {
    const src = normalizePosix(from);
    const dst = normalizePosix(to);
    if (src === dst) return;
    if (dst.startsWith(`${src}/`))
      throw new VfsError("EINVAL", `EINVAL: cannot move '${from}' into itself`, from);
    const e = await this.entry(src);
    if (!e.meta) throw fsErrors.notFound(from, "rename");
    await this.mkdirp(dirnamePosix(dst));
    if (e.meta.kind === "dir") {
      const target = await this.entry(dst);
      if (target.meta && (target.meta.kind !== "dir" || (await this.readdir(dst)).length > 0))
        throw fsErrors.notEmpty(to);
      if (!target.meta) await this.mkdir(dst);
      for (const name of await this.readdir(src)) await this.rename(`${src}/${name}`, `${dst}/${name}`);
      await this.rmdir(src);
      return;
    }
    const data = await this.dataOf(src, e);
    const target = await this.entry(dst);
    if (target.meta?.kind === "dir") throw fsErrors.isDir(to, "rename");
    this.put(dst, e.meta.kind, e.meta.mode, data);
    this.setEntry(src, { meta: null, base: e.base, dirty: true });
  }

  async symlink(target: string, path: string): Promise<void> {
    const p = normalizePosix(path);
    const e = await this.entry(p);
    if (e.meta) throw fsErrors.exists(path, "symlink");
    await this.mkdirp(dirnamePosix(p));
    this.put(p, "symlink", LINK_MODE, encoder.encode(target));
  }

  async readlink(path: string): Promise<string> {
    const p = normalizePosix(path);
    const e = await this.entry(p);
    if (!e.meta) throw fsErrors.notFound(path, "readlink");
    if (e.meta.kind !== "symlink")
      throw new VfsError("EINVAL", `EINVAL: invalid argument, readlink '${path}'`, path);
    return decoder.decode(await this.dataOf(p, e));
  }

  async walk(
    dir: string,
    options: { skip?: (path: string, stat: VfsStat) => boolean } = {},
  ): Promise<WalkEntry[]> {
    const root = await this.realpath(dir, true);
    const e = await this.entry(root);
    if (!e.meta) throw fsErrors.notFound(dir, "scandir");
    if (e.meta.kind !== "dir") throw fsErrors.notDir(dir);
    await this.preload(root, { withData: false });
    const out: WalkEntry[] = [];
    const visit = (d: string) => {
      for (const name of [...(this.children.get(d) ?? [])].sort()) {
        const path = d === "/" ? `/${name}` : `${d}/${name}`;
        const stat = this.statOf(this.entries.get(path)!);
        if (options.skip?.(path, stat)) continue;
        out.push({ path, stat });
        if (stat.kind === "dir") visit(path);
      }
    };
    visit(root);
    return out;
  }

  async readFiles(paths: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    const missing: string[] = [];
    await this.prefetch(paths.filter((p) => !this.entries.has(p)));
    for (const p of paths) {
      const e = this.entries.get(p) ?? (await this.entry(p));
      if (!e.meta || e.meta.kind === "dir") continue;
      if (e.data !== undefined) out.set(p, e.data);
      else missing.push(p);
    }
    if (missing.length === 0) return out;
    const loaded = await this.store.loadData(missing);
    for (const [p, d] of loaded) {
      const e = this.entries.get(p);
      if (e && e.data === undefined) e.data = d;
    }
    const ordered = new Map<string, Uint8Array>();
    for (const p of paths) {
      const d = out.get(p) ?? loaded.get(p);
      if (d) ordered.set(p, d);
    }
    return ordered;
  }

  // ---- bulk and persistence -------------------------------------------------------------------

  /**
   * Load every node below `prefix` in one query (with data when asked), and mark its directories as
   * fully listed. `except` prunes subtrees (e.g. `.git`).
   */
  async preload(prefix: string, options: { withData: boolean; except?: string[] }): Promise<void> {
    const p = normalizePosix(prefix);
    const rows = await this.store.loadTree(p, options);
    this.absorb(rows);
    this.listed.add(p);
    const except = options.except?.map((x) => normalizePosix(x)) ?? [];
    for (const r of rows) if (r.kind === "dir" && !except.some((x) => r.path === x)) this.listed.add(r.path);
  }

  /**
   * Load the metadata of many absolute paths, and of their ancestors, in one query, remembering the
   * absent ones, so that later `stat`/`exists`/`readFile`/`writeFile` on them cost no round trip.
   * With `withData`, also load in one more query the contents of those that are files or symlinks.
   * Already cached paths cost nothing; symlinks are not followed. Purely a cache warm-up.
   */
  async prefetch(paths: string[], options: { withData?: boolean } = {}): Promise<void> {
    const unknown = new Set<string>();
    const targets = paths.map((p) => normalizePosix(p));
    for (const target of targets) {
      for (let p = target; p !== "/"; p = dirnamePosix(p)) {
        if (this.entries.has(p) || unknown.has(p)) continue;
        if (this.knownAbsent(p)) this.entries.set(p, { meta: null, base: null, dirty: false });
        else unknown.add(p);
      }
    }
    if (unknown.size > 0) {
      this.absorb(await this.store.getMeta([...unknown]));
      for (const p of unknown)
        if (!this.entries.has(p)) this.entries.set(p, { meta: null, base: null, dirty: false });
    }
    if (!options.withData) return;
    const load = targets.filter((p) => {
      const e = this.entries.get(p);
      return e?.meta && e.meta.kind !== "dir" && e.data === undefined;
    });
    if (load.length === 0) return;
    const loaded = await this.store.loadData(load);
    for (const p of load) {
      const e = this.entries.get(p);
      if (e && e.data === undefined) e.data = loaded.get(p) ?? new Uint8Array();
    }
  }

  /**
   * Forget every unflushed change at or below absolute `prefix`: the cache reverts to what the store
   * holds (reloaded lazily), so a later `flush()` writes nothing there. Used to roll back a failed
   * operation (e.g. a clone) without touching changes elsewhere.
   */
  discard(prefix: string): void {
    const root = normalizePosix(prefix);
    const inside = (p: string) => root === "/" || p === root || p.startsWith(`${root}/`);
    for (const [path, e] of [...this.entries]) {
      if (!e.dirty || path === "/" || !inside(path)) continue;
      if (e.base === null) {
        this.setEntry(path, { meta: null, base: null, dirty: false });
      } else {
        this.entries.delete(path);
        this.children.get(dirnamePosix(path))?.add(basenamePosix(path));
      }
    }
  }

  /** Absolute paths changed since load/flush (files, dirs, links; deletions included). */
  dirtyPaths(): string[] {
    return [...this.entries]
      .filter(([, e]) => e.dirty)
      .map(([p]) => p)
      .sort();
  }

  /**
   * Write every change in one transaction.
   * @throws VfsConflictError when another writer changed a node since this VFS read it (nothing written).
   */
  async flush(): Promise<{ written: number; deleted: number }> {
    // Flushes run one at a time; writes made while one is in flight are kept for the next.
    const run = this.flushing.then(
      () => this.flushOnce(),
      () => this.flushOnce(),
    );
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async flushOnce(): Promise<{ written: number; deleted: number }> {
    const changes: NodeChange[] = [];
    const captured = new Map<string, Entry>();
    for (const [path, e] of this.entries) {
      if (!e.dirty || path === "/") continue;
      if (!e.meta) {
        if (e.base !== null) {
          changes.push({ op: "delete", path, baseVersion: e.base });
          captured.set(path, e);
        }
        continue;
      }
      changes.push({
        op: "put",
        path,
        kind: e.meta.kind,
        mode: e.meta.mode,
        data: e.meta.kind === "dir" ? null : (e.data ?? new Uint8Array()),
        mtimeMs: e.meta.mtimeMs,
        baseVersion: e.base,
        cas: !isObjectPath(path),
      });
      captured.set(path, e);
    }
    await this.store.commit(changes);
    for (const c of changes) {
      const stored = c.op === "delete" ? null : (c.baseVersion ?? 0) + 1;
      const current = this.entries.get(c.path);
      if (!current) continue;
      // A write made during the commit replaced the entry: it stays dirty, now based on what was stored.
      current.base = stored;
      if (current !== captured.get(c.path)) continue;
      current.dirty = false;
      if (current.meta) current.meta.version = stored;
    }
    return {
      written: changes.filter((c) => c.op === "put").length,
      deleted: changes.filter((c) => c.op === "delete").length,
    };
  }
}
