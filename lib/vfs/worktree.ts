/**
 * A project's working tree against its commits (docs/checkpoints.md): the working tree as git sees it (path → blob
 * id and mode), a commit's tree flattened, the difference of two such snapshots, and checking a commit's files out
 * into the working tree without touching `.git`, HEAD or untracked files. Reads are batched per tree level and per
 * file set, so a comparison costs a few round trips whatever the project's size.
 */
import * as git from "isomorphic-git";
import { fsErrors, VfsError } from "./errors";
import { createGitFs } from "./git-fs";
import { readTreeLenient } from "./git-holdable";
import { gitNameProblem } from "./names";
import { normalizePosix } from "./paths";
import type { Vfs } from "./vfs";

/** One file of a snapshot: its blob id and git mode (`100644`, `100755`, `120000`). */
export interface TreeFile {
  oid: string;
  mode: string;
}

/** Project-relative path ("/"-separated) → file. Read-only: a commit's snapshot is shared (cached). */
export type TreeSnapshot = ReadonlyMap<string, TreeFile>;

/** One path that differs between two snapshots. */
export interface TreeChange {
  path: string;
  status: "added" | "modified" | "deleted";
  /** Blob before (absent for `added`). */
  before?: TreeFile;
  /** Blob after (absent for `deleted`). */
  after?: TreeFile;
}

const encoder = new TextEncoder();
const objectPath = (gitdir: string, oid: string) => `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;

/**
 * Blob ids of working-tree contents, keyed by path, size and mtime: an unchanged file is not read or hashed again
 * by this process. Bounded; oldest forgotten first.
 */
const blobIds = new Map<string, string>();
const BLOB_IDS_MAX = 50_000;

function rememberBlob(key: string, oid: string): void {
  blobIds.set(key, oid);
  if (blobIds.size > BLOB_IDS_MAX) {
    const oldest = blobIds.keys().next().value;
    if (oldest !== undefined) blobIds.delete(oldest);
  }
}

/**
 * The working tree of the repository at `root` as git would record it: every file and symlink below `root` except
 * `.git` (the project's and nested repositories') and what lies below a name git cannot hold (lib/vfs/names.ts
 * `gitNameProblem`; old data), with its blob id and mode. Ignore rules are not applied (the caller's commit applies them).
 * Cost: one metadata load of the tree, one data load of the files not seen before at the same size and mtime.
 */
export async function workingTreeSnapshot(vfs: Vfs, root: string): Promise<TreeSnapshot> {
  const top = normalizePosix(root);
  const gitdir = `${top}/.git`;
  await vfs.preload(top, { withData: false, except: [gitdir] });
  const files: { rel: string; abs: string; kind: "file" | "symlink"; mode: number; key: string }[] = [];
  const stack = [top];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const name of await vfs.readdir(dir)) {
      const abs = `${dir === "/" ? "" : dir}/${name}`;
      if (abs === gitdir || gitNameProblem(name)) continue;
      const st = await vfs.lstat(abs);
      if (st.kind === "dir") stack.push(abs);
      else
        files.push({
          rel: abs.slice(top.length + 1),
          abs,
          kind: st.kind,
          mode: st.mode,
          key: `${vfs.store.identity ?? ""}\0${abs}\0${st.kind}\0${st.size}\0${st.mtimeMs}`,
        });
    }
  }
  const unseen = files.filter((f) => !blobIds.has(f.key)).map((f) => f.abs);
  if (unseen.length > 0) await vfs.prefetch(unseen, { withData: true });
  const out = new Map<string, TreeFile>();
  for (const f of files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) {
    let oid = blobIds.get(f.key);
    if (!oid) {
      const bytes =
        f.kind === "symlink" ? encoder.encode(await vfs.readlink(f.abs)) : await vfs.readFile(f.abs);
      oid = (await git.hashBlob({ object: bytes })).oid;
      rememberBlob(f.key, oid);
    }
    out.set(f.rel, {
      oid,
      mode: f.kind === "symlink" ? "120000" : f.mode === 0o100755 ? "100755" : "100644",
    });
  }
  return out;
}

/**
 * Every file of commit `commitOid`'s tree (or of tree `commitOid`), recursively; submodule entries are left out.
 * One batched object load per tree level. An empty map for null (no commit yet). A tree entry whose name git cannot
 * hold (`.git`, `..`, a backslash: a hostile pull, or an older Strata's checkpoint) fails the read, as isomorphic-git's
 * `readTree` does; with `options.lenient` (a run's own file state) it is left out instead.
 * @throws isomorphic-git `NotFoundError` when the commit does not exist; `UnsafeFilepathError` for such a name
 *   (not `lenient`).
 */
export async function commitSnapshot(
  vfs: Vfs,
  root: string,
  commitOid: string | null,
  options: { lenient?: boolean } = {},
): Promise<TreeSnapshot> {
  if (!commitOid) return new Map();
  const gitdir = `${normalizePosix(root)}/.git`;
  const gfs = createGitFs(vfs);
  const cache = {};
  // The object must be in this repository (it throws otherwise), whatever is cached.
  await vfs.prefetch([objectPath(gitdir, commitOid)], { withData: true });
  const { type, object } = await git.readObject({ fs: gfs, gitdir, oid: commitOid, cache });
  // A commit never changes: its snapshot is cached by id (the id names its whole tree).
  const cached = snapshots.get(commitOid);
  if (cached) {
    snapshots.delete(commitOid);
    snapshots.set(commitOid, cached);
    return cached;
  }
  const out = new Map<string, TreeFile>();
  let complete = true;
  const rootTree = type === "commit" ? (object as git.CommitObject).tree : commitOid;
  let level: [string, string][] = [["", rootTree]];
  while (level.length > 0) {
    await vfs.prefetch(
      level.map(([, oid]) => objectPath(gitdir, oid)),
      { withData: true },
    );
    const next: [string, string][] = [];
    for (const [prefix, oid] of level) {
      const { entries: tree, dropped } = await readTreeLenient(gfs, gitdir, oid, cache);
      if (dropped.length > 0 && !options.lenient) throw new git.Errors.UnsafeFilepathError(dropped[0]);
      if (dropped.length > 0) complete = false;
      for (const e of tree) {
        const path = prefix ? `${prefix}/${e.path}` : e.path;
        if (e.type === "tree") next.push([path, e.oid]);
        else if (e.type === "blob") out.set(path, { oid: e.oid, mode: e.mode });
      }
    }
    level = next;
  }
  // Only a whole tree is shared: a strict read of a commit read leniently must still fail.
  if (!complete) return out;
  snapshots.set(commitOid, out);
  if (snapshots.size > SNAPSHOTS_MAX) {
    const oldest = snapshots.keys().next().value;
    if (oldest !== undefined) snapshots.delete(oldest);
  }
  return out;
}

/** Commit snapshots by commit id (most recently used last). */
const snapshots = new Map<string, TreeSnapshot>();
const SNAPSHOTS_MAX = 32;

/** The paths that differ from `before` to `after`, sorted. */
export function diffSnapshots(before: TreeSnapshot, after: TreeSnapshot): TreeChange[] {
  const out: TreeChange[] = [];
  for (const [path, a] of after) {
    const b = before.get(path);
    if (!b) out.push({ path, status: "added", after: a });
    else if (b.oid !== a.oid || b.mode !== a.mode)
      out.push({ path, status: "modified", before: b, after: a });
  }
  for (const [path, b] of before) if (!after.has(path)) out.push({ path, status: "deleted", before: b });
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

/** The bytes of blob `oid` of the repository at `root`. @throws isomorphic-git `NotFoundError`. */
export async function readBlob(vfs: Vfs, root: string, oid: string): Promise<Uint8Array> {
  const gitdir = `${normalizePosix(root)}/.git`;
  await vfs.prefetch([objectPath(gitdir, oid)], { withData: true });
  return (await git.readBlob({ fs: createGitFs(vfs), gitdir, oid })).blob;
}

/**
 * Refuse to write project-relative `rel` below `root` when one of its parent folders is a symbolic link: git never
 * checks out beyond one, and an untracked (e.g. ignored) link would take the write into `.git` or out of the project.
 * @throws VfsError `EINVAL` naming the path and the link.
 */
export async function assertNoSymlinkParent(vfs: Vfs, root: string, rel: string): Promise<void> {
  const top = normalizePosix(root);
  for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1)) {
    const dir = rel.slice(0, i);
    const st = await vfs.lstat(`${top}/${dir}`).catch(() => null);
    if (!st) return; // missing: created as a folder
    if (st.kind === "symlink")
      throw new VfsError(
        "EINVAL",
        `EINVAL: refusing to write '${top}/${rel}': '${dir}' is a symbolic link (git does not check out beyond one). Remove or rename it, then try again.`,
        `${top}/${rel}`,
      );
  }
}

/**
 * Make the working tree hold `target` where it holds `current` (a snapshot the working tree equals for the paths
 * it names, e.g. the commit just made of it): files of `current` absent from `target` are deleted (and directories
 * they leave empty), files that differ are written with `target`'s bytes and mode. Paths named by neither snapshot
 * (untracked, ignored files) are never touched; one that `target` would overwrite is refused. Writes stay in the
 * VFS until the caller flushes. @returns the changes applied.
 * @throws VfsError `EEXIST` naming an untracked path the target would overwrite (nothing written).
 */
export async function checkoutSnapshot(
  vfs: Vfs,
  root: string,
  current: TreeSnapshot,
  target: TreeSnapshot,
): Promise<TreeChange[]> {
  const top = normalizePosix(root);
  const changes = diffSnapshots(current, target);
  const writes = changes.filter((c) => c.status !== "deleted");
  await vfs.prefetch(
    writes.map((c) => `${top}/${c.path}`),
    { withData: false },
  );
  for (const c of writes)
    if (c.status === "added" && (await vfs.lstat(`${top}/${c.path}`).catch(() => null))?.kind === "file")
      throw fsErrors.exists(`${top}/${c.path}`);
  const gitdir = `${top}/.git`;
  await vfs.prefetch(
    writes.map((c) => objectPath(gitdir, c.after!.oid)),
    { withData: true },
  );
  const gfs = createGitFs(vfs);
  // Deletions first (a file may become a directory), deepest first, then emptied directories.
  const dirs = new Set<string>();
  for (const c of changes.filter((x) => x.status === "deleted").reverse()) {
    await vfs.unlink(`${top}/${c.path}`).catch((e: { code?: string }) => {
      if (e?.code !== "ENOENT") throw e;
    });
    for (let d = c.path.lastIndexOf("/"); d > 0; d = c.path.lastIndexOf("/", d - 1))
      dirs.add(c.path.slice(0, d));
  }
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    const abs = `${top}/${d}`;
    const st = await vfs.lstat(abs).catch(() => null);
    if (st?.kind === "dir" && (await vfs.readdir(abs)).length === 0) await vfs.rmdir(abs);
  }
  for (const c of writes) {
    const abs = `${top}/${c.path}`;
    // After the deletions (a tracked link replaced by a folder is gone by now); the caller flushes only on success.
    await assertNoSymlinkParent(vfs, top, c.path);
    const { blob } = await git.readBlob({ fs: gfs, gitdir, oid: c.after!.oid });
    const existing = await vfs.lstat(abs).catch(() => null);
    if (existing && existing.kind !== "dir") await vfs.unlink(abs);
    else if (existing?.kind === "dir") await vfs.rmdir(abs, { recursive: true });
    if (c.after!.mode === "120000") await vfs.symlink(new TextDecoder().decode(blob), abs);
    else await vfs.writeFile(abs, blob, { mode: c.after!.mode === "100755" ? 0o100755 : 0o100644 });
  }
  return changes;
}
