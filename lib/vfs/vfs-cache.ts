/**
 * The per-operation cache under `Vfs` (lib/vfs/vfs.ts): entries by absolute path, the names of each cached
 * directory's children, which directories are fully listed, and symlink resolution over it.
 *
 * Cost model: every path operation is linear in the number of the path's components (and their length).
 * Parents are derived by slicing already-normalised paths (never re-normalised per ancestor), missing
 * ancestors are created top-down (each lookup finds its parent cached), and directories already known to be
 * symlink-free are remembered (`realDirs`) so a component-by-component confinement walk does not resolve
 * every prefix again. (Before this, a 1,600-level path cost about n³ string operations: 41.6 s in one PUT.)
 */
import { fsErrors } from "./errors";
import { normalizePosix } from "./paths";
import type { NodeMeta, VfsStore } from "./store";
import type { VfsNodeKind, VfsStat } from "./types";

export const DIR_MODE = 0o040000;
export const FILE_MODE = 0o100644;
export const LINK_MODE = 0o120000;
const MAX_LINK_HOPS = 40;
const decoder = new TextDecoder();

/** One cached node. */
export interface Entry {
  /** null = known absent. */
  meta: (Omit<NodeMeta, "version"> & { version: number | null }) | null;
  data?: Uint8Array;
  /** Version as read from the store (null = absent there). */
  base: number | null;
  dirty: boolean;
}

/** Parent of an absolute, normalised path (`"/a/b"` → `"/a"`, `"/a"` → `"/"`). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

/** Last component of an absolute, normalised path. */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** `dir` joined with one component `name` (both already normalised). */
export function childOf(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** The cache and path resolution shared by `Vfs`'s operations; see the module comment. */
export abstract class VfsCache {
  protected readonly entries = new Map<string, Entry>();
  protected readonly children = new Map<string, Set<string>>();
  protected readonly listed = new Set<string>();
  /** Cached directories reached from `/` without crossing a symlink; cleared when any directory goes away. */
  protected readonly realDirs = new Set<string>(["/"]);
  /** Paths another writer changed in the store for this VFS's user (see `forget`), until taken. */
  private readonly changedElsewhere = new Set<string>();
  protected readonly now: () => number;

  constructor(
    readonly store: VfsStore,
    now: () => number,
  ) {
    this.now = now;
    this.entries.set("/", {
      meta: { kind: "dir", mode: DIR_MODE, size: 0, mtimeMs: 0, version: null },
      base: null,
      dirty: false,
    });
  }

  /** Drop the symlink-free memo (a directory went away or was replaced). */
  protected forgetRealDirs(): void {
    this.realDirs.clear();
    this.realDirs.add("/");
  }

  protected setEntry(path: string, entry: Entry): void {
    const previous = this.entries.get(path);
    this.entries.set(path, entry);
    if (previous?.meta?.kind === "dir" && entry.meta?.kind !== "dir") this.forgetRealDirs();
    if (path === "/") return;
    const parent = parentOf(path);
    const name = nameOf(path);
    let set = this.children.get(parent);
    if (!set) {
      set = new Set();
      this.children.set(parent, set);
    }
    if (entry.meta) set.add(name);
    else if (previous?.meta) set.delete(name);
  }

  /** Merge rows from the store without clobbering local changes. */
  protected absorb(
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

  /**
   * True when the cache alone proves `path` absent: an ancestor is absent or a file, or a listed dir lacks
   * the next component. Stops at the first cached ancestor (normally the parent).
   */
  protected knownAbsent(path: string): boolean {
    for (let child = path, p = parentOf(path); ; child = p, p = parentOf(p)) {
      if (child !== path) {
        const c = this.entries.get(child);
        if (c) return !c.meta || c.meta.kind === "file";
      }
      if (this.listed.has(p)) return true;
      if (p === "/") return false;
    }
  }

  protected async entry(path: string): Promise<Entry> {
    const known = this.entries.get(path);
    if (known) return known;
    if (this.knownAbsent(path)) {
      const absent: Entry = { meta: null, base: null, dirty: false };
      this.entries.set(path, absent);
      return absent;
    }
    const rows = await this.store.getMeta([path]);
    this.absorb(rows);
    let found = this.entries.get(path);
    if (!found) {
      found = { meta: null, base: null, dirty: false };
      this.entries.set(path, found);
    }
    return found;
  }

  protected async ensureListed(dir: string): Promise<void> {
    if (this.listed.has(dir)) return;
    this.absorb(await this.store.listChildren([dir]));
    this.listed.add(dir);
  }

  /**
   * Resolve symlinks in every component of `path` (the last one too when `followLast`). A missing component
   * ends the resolution: the rest is appended unchanged. Linear in the components (plus each link's target).
   * @throws VfsError ELOOP after 40 links, ENOTDIR when a non-directory has components below it.
   */
  protected async realpath(path: string, followLast: boolean): Promise<string> {
    const norm = normalizePosix(path);
    if (this.realDirs.has(norm)) return norm;
    const parent = parentOf(norm);
    if (this.realDirs.has(parent)) {
      // The common case (a walk down from the root): only the last component can be a link.
      const e = await this.entry(norm);
      if (e.meta?.kind !== "symlink" || !followLast) {
        if (e.meta?.kind === "dir") this.realDirs.add(norm);
        return norm;
      }
    }
    let parts = norm.split("/");
    let i = 1;
    let current = "/";
    let hops = 0;
    while (i < parts.length) {
      const next = childOf(current, parts[i]);
      i++;
      const last = i === parts.length;
      const e = await this.entry(next);
      if (e.meta?.kind === "symlink" && (!last || followLast)) {
        if (++hops > MAX_LINK_HOPS) throw fsErrors.loop(path);
        const target = decoder.decode(await this.dataOf(next, e));
        const resolved = normalizePosix(target.startsWith("/") ? target : `${current}/${target}`);
        parts = ["", ...resolved.split("/").filter(Boolean), ...parts.slice(i)];
        i = 1;
        current = "/";
        continue;
      }
      if (!last && e.meta && e.meta.kind !== "dir") throw fsErrors.notDir(path, "stat");
      if (!last && !e.meta) return [next, ...parts.slice(i)].join("/");
      if (e.meta?.kind === "dir") this.realDirs.add(next);
      current = next;
    }
    return current;
  }

  /** `path` with its directory's symlinks resolved and the last component kept (what lstat, unlink, rename use). */
  protected async entryPath(path: string): Promise<string> {
    const norm = normalizePosix(path);
    if (norm === "/") return norm;
    const parent = parentOf(norm);
    const dir = this.realDirs.has(parent) ? parent : await this.realpath(parent, true);
    return childOf(dir, nameOf(norm));
  }

  protected async dataOf(path: string, e: Entry): Promise<Uint8Array> {
    if (e.data === undefined) {
      const loaded = await this.store.loadData([path]);
      e.data = loaded.get(path) ?? new Uint8Array();
    }
    return e.data;
  }

  protected statOf(e: Entry): VfsStat {
    const m = e.meta!;
    return { kind: m.kind, mode: m.mode, size: m.size, mtimeMs: m.mtimeMs };
  }

  protected put(path: string, kind: VfsNodeKind, mode: number, data: Uint8Array | undefined): void {
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

  /**
   * Create `dir` and its missing ancestors, top-down (each lookup finds its parent cached: linear).
   * Symlinks along `dir` are resolved first. @throws VfsError ENOTDIR when a component is not a directory.
   */
  protected async mkdirp(dir: string): Promise<void> {
    const real = await this.realpath(dir, true);
    if (this.realDirs.has(real)) return;
    const parts = real.split("/");
    let p = "/";
    for (let i = 1; i < parts.length; i++) {
      p = childOf(p, parts[i]);
      const e = await this.entry(p);
      if (e.meta) {
        if (e.meta.kind !== "dir") throw fsErrors.notDir(dir, "mkdir");
        continue;
      }
      this.put(p, "dir", DIR_MODE, undefined);
      this.listed.add(p);
      this.realDirs.add(p);
    }
  }

  /**
   * Load every node below `prefix` in one query (with data when asked), and mark its directories as
   * fully listed. `except` prunes subtrees (e.g. `.git`); their own nodes are looked up (one more query unless
   * cached), so a listed parent does not take them for absent.
   */
  async preload(prefix: string, options: { withData: boolean; except?: string[] }): Promise<void> {
    const p = normalizePosix(prefix);
    const rows = await this.store.loadTree(p, options);
    this.absorb(rows);
    const except = new Set(options.except?.map((x) => normalizePosix(x)) ?? []);
    if (except.size > 0) await this.prefetch([...except]);
    this.listed.add(p);
    for (const r of rows) if (r.kind === "dir" && !except.has(r.path)) this.listed.add(r.path);
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
      for (let p = target; p !== "/"; p = parentOf(p)) {
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
    this.forgetRealDirs();
    for (const [path, e] of [...this.entries]) {
      if (!e.dirty || path === "/" || !inside(path)) continue;
      if (e.base === null) {
        this.setEntry(path, { meta: null, base: null, dirty: false });
      } else {
        this.entries.delete(path);
        this.children.get(parentOf(path))?.add(nameOf(path));
      }
    }
  }

  /**
   * Absolute `paths` were changed in the store by another writer on this VFS's behalf (the execution service ran
   * a shell command): drop their cached state (and of everything below them, and their parents' listings) so the
   * next read loads what the store holds, and remember them for `takeChangedElsewhere` (the checkpointer commits
   * them). A path with unflushed local changes keeps them.
   */
  forget(paths: string[]): void {
    const gone = new Set(paths.map((p) => normalizePosix(p)).filter((p) => p !== "/"));
    if (gone.size === 0) return;
    this.forgetRealDirs();
    const covered = (p: string) => {
      for (let q = p; q !== "/"; q = parentOf(q)) if (gone.has(q)) return true;
      return false;
    };
    for (const [p, e] of [...this.entries]) {
      if (e.dirty || p === "/" || !covered(p)) continue;
      this.entries.delete(p);
      this.children.delete(p);
      this.listed.delete(p);
      this.children.get(parentOf(p))?.delete(nameOf(p));
    }
    for (const p of gone) {
      this.changedElsewhere.add(p);
      this.listed.delete(parentOf(p));
    }
  }

  /** The paths `forget` was told about since the last call (absolute, sorted), once. */
  takeChangedElsewhere(): string[] {
    const paths = [...this.changedElsewhere].sort();
    this.changedElsewhere.clear();
    return paths;
  }

  /** Absolute paths changed since load/flush (files, dirs, links; deletions included). */
  dirtyPaths(): string[] {
    return [...this.entries]
      .filter(([, e]) => e.dirty)
      .map(([p]) => p)
      .sort();
  }
}
