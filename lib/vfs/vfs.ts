/**
 * `Vfs`: a workspace filesystem backed by Postgres (`VfsStore`), with a per-operation cache (lib/vfs/vfs-cache.ts).
 *
 * Reads load lazily (metadata by path or by directory, data on first read, or a whole subtree in one
 * query with `preload`). Writes stay in memory until `flush()`, which commits every change in one
 * transaction with optimistic concurrency: a node changed by someone else since it was read makes the
 * flush fail with `VfsConflictError` and write nothing. Loose git objects (`.git/objects/xx/…`) are
 * content-addressed and written without a version check (an object already stored is the same bytes), and a
 * directory this VFS creates that another writer created meanwhile is not a conflict either: writers of one
 * workspace (the sessions of a project) create the same `.git/objects/xx` and project directories at once.
 *
 * Limits (lib/vfs/limits.ts): a file over `MAX_FILE_BYTES` (git object files: over the flush limit) and a
 * flush of more than `MAX_FLUSH_BYTES` of file content (git objects not counted) fail with `EFBIG` (HTTP 413); creating a path deeper or longer than the
 * workspace backstop limits fails with `ENAMETOOLONG` (HTTP 400) before any other work.
 *
 * Names: `writeFile`, `mkdir`, `rename` (its target) and `symlink` refuse a path the one name rule refuses
 * (lib/vfs/names.ts `checkCreatablePath`; as given and resolved) with `UnsafeNameError` (`EINVAL`, HTTP 400).
 */
import { formatBytesLimit, fsErrors, VfsError } from "./errors";
import { checkWorkspacePathLimits, MAX_FILE_BYTES, MAX_FLUSH_BYTES } from "./limits";
import { checkCreatablePath } from "./names";
import type { VfsStore } from "./store";
import type { FileSystem, VfsStat, WalkEntry } from "./types";
import { childOf, DIR_MODE, FILE_MODE, LINK_MODE, parentOf, VfsCache } from "./vfs-cache";
import { isObjectPath, pendingChanges, settleCommitted } from "./vfs-flush";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface VfsOptions {
  /** Largest file accepted by `writeFile`, bytes (default `MAX_FILE_BYTES`, 10 MiB). */
  maxFileBytes?: number;
  /** Largest total of file/symlink content one `flush()` writes, bytes (default `MAX_FLUSH_BYTES`, 64 MiB). */
  maxFlushBytes?: number;
  /** Clock for mtimes, epoch ms. */
  now?: () => number;
}

/** A path about to be created: the workspace backstop limits, then the name rule. */
function checkNewPath(path: string): void {
  checkWorkspacePathLimits(path);
  checkCreatablePath(path);
}

/** The Postgres-backed workspace filesystem. Not safe for concurrent use by two requests; make one per request. */
export class Vfs extends VfsCache implements FileSystem {
  private readonly maxFileBytes: number;
  private readonly maxFlushBytes: number;
  private flushing: Promise<unknown> = Promise.resolve();

  constructor(store: VfsStore, options: VfsOptions = {}) {
    super(store, options.now ?? Date.now);
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.maxFlushBytes = options.maxFlushBytes ?? MAX_FLUSH_BYTES;
  }

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

  /**
   * Create or replace a file (parents created). @throws VfsError ENAMETOOLONG for a path over the workspace
   * limits (as given or with its symlinks resolved), EFBIG over `maxFileBytes` (git object files: over `maxFlushBytes`), EISDIR on a directory;
   * UnsafeNameError (EINVAL) for a name the rule refuses, as given or resolved.
   */
  async writeFile(path: string, data: Uint8Array | string, options: { mode?: number } = {}): Promise<void> {
    checkNewPath(path);
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const limit = isObjectPath(path) ? this.maxFlushBytes : this.maxFileBytes;
    if (bytes.byteLength > limit) throw fsErrors.tooBig(path, bytes.byteLength, limit);
    const real = await this.realpath(path, true);
    // The backstop holds for where the write lands: symlinked parents cannot take it deeper.
    if (real !== path) checkNewPath(real);
    const e = await this.entry(real);
    if (e.meta?.kind === "dir") throw fsErrors.isDir(path, "open");
    await this.mkdirp(parentOf(real));
    const mode = options.mode ?? (e.meta?.kind === "file" ? e.meta.mode : FILE_MODE);
    this.put(real, "file", mode, bytes);
  }

  /** @throws VfsError EEXIST, ENOENT/ENOTDIR for a missing parent (not recursive), ENAMETOOLONG; UnsafeNameError. */
  async mkdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    checkNewPath(path);
    const p = await this.entryPath(path);
    if (p !== path) checkNewPath(p);
    const e = await this.entry(p);
    if (e.meta) {
      if (options.recursive && (await this.stat(p)).kind === "dir") return;
      throw fsErrors.exists(path);
    }
    if (options.recursive) return this.mkdirp(p);
    const parent = await this.entry(parentOf(p));
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
    const e = await this.entry(await this.entryPath(path));
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
    const p = await this.entryPath(path);
    const e = await this.entry(p);
    if (!e.meta) throw fsErrors.notFound(path, "unlink");
    if (e.meta.kind === "dir") throw fsErrors.isDir(path, "unlink");
    this.setEntry(p, { meta: null, base: e.base, dirty: true });
  }

  async rmdir(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const p = await this.entryPath(path);
    if (p === "/") throw new VfsError("EACCES", "EACCES: cannot remove the workspace root", p);
    const e = await this.entry(p);
    if (!e.meta) throw fsErrors.notFound(path, "rmdir");
    if (e.meta.kind !== "dir") throw fsErrors.notDir(path, "rmdir");
    // One query for the whole subtree instead of one listing per directory.
    if (options.recursive) await this.preload(p, { withData: false });
    const names = await this.readdir(p);
    if (names.length > 0 && !options.recursive) throw fsErrors.notEmpty(path);
    // Iterative (a stored tree may be thousands of levels deep): collect, then remove deepest first.
    const doomed: string[] = [];
    for (let stack = [p]; stack.length > 0; ) {
      const dir = stack.pop() as string;
      for (const name of this.children.get(dir) ?? []) {
        const child = childOf(dir, name);
        const ce = this.entries.get(child);
        if (!ce?.meta) continue;
        doomed.push(child);
        if (ce.meta.kind === "dir") stack.push(child);
      }
    }
    for (let k = doomed.length - 1; k >= 0; k--) {
      const child = doomed[k];
      this.setEntry(child, { meta: null, base: this.entries.get(child)?.base ?? null, dirty: true });
    }
    this.setEntry(p, { meta: null, base: e.base, dirty: true });
  }

  /**
   * Move a file, symlink or directory (with everything below it). Only `to` is held to the name rule: a stored name
   * it refuses (old data) can be moved and renamed, and moves inside a folder that moves.
   * @throws VfsError ENOENT, ENOTEMPTY, EISDIR, EINVAL (into itself), ENAMETOOLONG; UnsafeNameError for `to`.
   */
  async rename(from: string, to: string): Promise<void> {
    checkNewPath(to);
    const dst = await this.entryPath(to);
    if (dst !== to) checkNewPath(dst);
    return this.move(from, to);
  }

  private async move(from: string, to: string): Promise<void> {
    checkWorkspacePathLimits(to);
    const src = await this.entryPath(from);
    const dst = await this.entryPath(to);
    if (dst !== to) checkWorkspacePathLimits(dst);
    if (src === dst) return;
    if (dst.startsWith(`${src}/`))
      throw new VfsError("EINVAL", `EINVAL: cannot move '${from}' into itself`, from);
    const e = await this.entry(src);
    if (!e.meta) throw fsErrors.notFound(from, "rename");
    await this.mkdirp(parentOf(dst));
    if (e.meta.kind === "dir") {
      const target = await this.entry(dst);
      if (target.meta && (target.meta.kind !== "dir" || (await this.readdir(dst)).length > 0))
        throw fsErrors.notEmpty(to);
      if (!target.meta) {
        // Not `mkdir`: a stored name the rule refuses moves along with its folder.
        this.put(dst, "dir", DIR_MODE, undefined);
        this.listed.add(dst);
      }
      for (const name of await this.readdir(src)) await this.move(childOf(src, name), childOf(dst, name));
      await this.rmdir(src);
      return;
    }
    const data = await this.dataOf(src, e);
    const target = await this.entry(dst);
    if (target.meta?.kind === "dir") throw fsErrors.isDir(to, "rename");
    this.put(dst, e.meta.kind, e.meta.mode, data);
    this.setEntry(src, { meta: null, base: e.base, dirty: true });
  }

  /** Create symlink `path` → `target` (parents created). @throws VfsError EEXIST, ENAMETOOLONG; UnsafeNameError for `path`. */
  async symlink(target: string, path: string): Promise<void> {
    checkNewPath(path);
    checkWorkspacePathLimits(target);
    const p = await this.entryPath(path);
    if (p !== path) checkNewPath(p);
    const e = await this.entry(p);
    if (e.meta) throw fsErrors.exists(path, "symlink");
    await this.mkdirp(parentOf(p));
    this.put(p, "symlink", LINK_MODE, encoder.encode(target));
  }

  async readlink(path: string): Promise<string> {
    const p = await this.entryPath(path);
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
    // Depth-first in path order with an explicit stack (a stored tree may be thousands of levels deep).
    const stack: string[] = [];
    const pushChildren = (d: string) => {
      const names = [...(this.children.get(d) ?? [])].sort();
      for (let k = names.length - 1; k >= 0; k--) stack.push(childOf(d, names[k]));
    };
    pushChildren(root);
    while (stack.length > 0) {
      const path = stack.pop() as string;
      const stat = this.statOf(this.entries.get(path)!);
      if (options.skip?.(path, stat)) continue;
      out.push({ path, stat });
      if (stat.kind === "dir") pushChildren(path);
    }
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

  /**
   * Delete `path` (a file, a symlink itself, or a directory with everything below it) in the store now, in
   * one statement, instead of through `flush()`; unflushed changes there are dropped. The parent's symlinks
   * are resolved, the last component is not followed. No path limits apply, so anything stored can be deleted.
   * @returns the number of nodes deleted (the path itself included).
   * @throws VfsError ENOENT when `path` does not exist, EACCES for the workspace root.
   */
  async removeTree(path: string): Promise<number> {
    const p = await this.entryPath(path);
    if (p === "/") throw new VfsError("EACCES", "EACCES: cannot remove the workspace root", p);
    const e = await this.entry(p);
    if (!e.meta) throw fsErrors.notFound(path, "rm");
    this.discard(p);
    const count = await this.store.deleteTree(p);
    const below = `${p}/`;
    for (const key of [...this.entries.keys()]) {
      if (!key.startsWith(below)) continue;
      this.entries.delete(key);
      this.children.delete(key);
      this.listed.delete(key);
    }
    this.children.delete(p);
    this.listed.delete(p);
    this.setEntry(p, { meta: null, base: null, dirty: false });
    this.forgetRealDirs();
    return count;
  }

  /**
   * After a `VfsConflictError` on `paths`: base this VFS's pending changes of those paths on what is stored now, so
   * the next flush writes them over the other writer's (who must have kept theirs: a restore's commit). Entries
   * without pending changes are left as they are.
   */
  async rebase(paths: string[]): Promise<void> {
    const stored = new Map((await this.store.getMeta(paths)).map((r) => [r.path, r.version]));
    for (const path of paths) {
      const e = this.entries.get(path);
      if (e?.dirty) e.base = stored.get(path) ?? null;
    }
  }

  /**
   * Write every change in one transaction (in bounded statements, see `PgVfsStore.commit`; the changes taken from
   * the cache and settled after: lib/vfs/vfs-flush.ts).
   * @throws VfsConflictError when another writer changed a node since this VFS read it (nothing written);
   *   VfsError EFBIG when the changed file/symlink content (git objects not counted) exceeds `maxFlushBytes`
   *   (nothing written; the changes stay unflushed, `discard` drops them).
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
    const { changes, captured, bytes } = pendingChanges(this.entries);
    if (bytes > this.maxFlushBytes) {
      throw new VfsError(
        "EFBIG",
        `EFBIG: one write of ${bytes} bytes of file content; the limit is ${formatBytesLimit(this.maxFlushBytes)}. Nothing was written; write fewer or smaller files at a time.`,
      );
    }
    const { existingDirs } = await this.store.commit(changes);
    settleCommitted(this.entries, changes, captured, existingDirs);
    return {
      written: changes.filter((c) => c.op === "put").length,
      deleted: changes.filter((c) => c.op === "delete").length,
    };
  }
}
