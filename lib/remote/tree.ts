/**
 * Reading a project repository's commits as file trees: what a source names (`HEAD`, an oid, a ref), every file of
 * a commit, and the difference between two commits (only differing subtrees are read). Loose objects are
 * prefetched one tree level at a time, so a tree costs a round trip per level, not per object; packed objects are
 * read through isomorphic-git's pack cache (`cache`, shared by the calls of one operation).
 */
import * as git from "isomorphic-git";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { Vfs } from "@/lib/vfs/vfs";
import { RemoteError } from "./errors";
import { isOid, sourceProblem } from "./refs";

/** One file (or symlink) of a commit: project-relative path, git mode (`100644`, `100755`, `120000`), blob id. */
export interface TreeFile {
  path: string;
  mode: string;
  oid: string;
}

/** One path that differs between two commits. */
export interface TreeChange {
  path: string;
  status: "added" | "modified" | "deleted";
  before: TreeFile | null;
  after: TreeFile | null;
}

const objectPath = (gitdir: string, oid: string) => `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;

/** The isomorphic-git handles of one repository: `gfs`, `gitdir`, a shared object `cache`. */
export interface Repo {
  vfs: Vfs;
  root: string;
  gitdir: string;
  gfs: ReturnType<typeof createGitFs>;
  cache: object;
}

export function openRepo(vfs: Vfs, root: string): Repo {
  return { vfs, root, gitdir: `${root}/.git`, gfs: createGitFs(vfs), cache: {} };
}

/**
 * The commit `source` names: `HEAD`, a 40-hex oid, or a full ref (`refs/heads/strata/session-<id>`).
 * @throws RemoteError 400 `invalid_commit` (not an acceptable name), 404 `commit_not_found` (no such commit in the
 *   project's repository, or no repository).
 */
export async function resolveSource(repo: Repo, source: string): Promise<string> {
  const problem = sourceProblem(source);
  if (problem) throw new RemoteError(400, "invalid_commit", problem);
  const missing = () =>
    new RemoteError(
      404,
      "commit_not_found",
      `${source.slice(0, 200)} is not a commit of this project's repository.`,
    );
  let oid = source;
  if (!isOid(source)) {
    try {
      oid = await git.resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref: source });
    } catch {
      throw missing();
    }
  }
  try {
    await repo.vfs.prefetch([objectPath(repo.gitdir, oid)], { withData: true });
    return (await git.readCommit({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache })).oid;
  } catch {
    throw missing();
  }
}

/** The tree and committer time of commit `oid`. */
export async function commitInfo(repo: Repo, oid: string): Promise<{ tree: string; timestamp: number }> {
  const { commit } = await git.readCommit({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache });
  return { tree: commit.tree, timestamp: commit.committer.timestamp };
}

async function readTrees(repo: Repo, oids: string[]): Promise<git.TreeEntry[][]> {
  await repo.vfs.prefetch(
    oids.map((oid) => objectPath(repo.gitdir, oid)),
    { withData: true },
  );
  return Promise.all(
    oids.map(
      async (oid) => (await git.readTree({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache })).tree,
    ),
  );
}

/** Every file and symlink of tree `treeOid` (submodules left out), sorted by path. */
export async function listTreeFiles(repo: Repo, treeOid: string): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  let level: [string, string][] = [["", treeOid]];
  while (level.length > 0) {
    const trees = await readTrees(
      repo,
      level.map(([, oid]) => oid),
    );
    const next: [string, string][] = [];
    level.forEach(([prefix], i) => {
      for (const e of trees[i]) {
        const path = prefix ? `${prefix}/${e.path}` : e.path;
        if (e.type === "tree") next.push([path, e.oid]);
        else if (e.type === "blob") files.push({ path, mode: e.mode, oid: e.oid });
      }
    });
    level = next;
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The bytes of blob `oid`. */
export async function readBlob(repo: Repo, oid: string): Promise<Uint8Array> {
  return (await git.readBlob({ fs: repo.gfs, gitdir: repo.gitdir, oid, cache: repo.cache })).blob;
}

/** Prefetch the loose objects among `oids` (a batch of blobs about to be read). */
export async function prefetchObjects(repo: Repo, oids: string[]): Promise<void> {
  await repo.vfs.prefetch(
    oids.map((oid) => objectPath(repo.gitdir, oid)),
    { withData: true },
  );
}

/**
 * The files that differ between trees `from` (null: empty) and `to` (null: empty), by path; subtrees with the
 * same id are skipped, so the cost follows the size of the change.
 */
export async function diffTrees(repo: Repo, from: string | null, to: string | null): Promise<TreeChange[]> {
  const changes: TreeChange[] = [];
  const all = async (prefix: string, oid: string, side: "before" | "after") => {
    const files = await listTreeFiles(repo, oid);
    for (const f of files) {
      const file = { ...f, path: `${prefix}${f.path}` };
      changes.push(
        side === "before"
          ? { path: file.path, status: "deleted", before: file, after: null }
          : { path: file.path, status: "added", before: null, after: file },
      );
    }
  };
  let level: [string, string | null, string | null][] = [["", from, to]];
  while (level.length > 0) {
    const oids = [...new Set(level.flatMap(([, a, b]) => [a, b]).filter((x): x is string => x !== null))];
    const read = await readTrees(repo, oids);
    const byOid = new Map(oids.map((oid, i) => [oid, read[i]]));
    const next: [string, string | null, string | null][] = [];
    for (const [prefix, a, b] of level) {
      const left = new Map((a ? byOid.get(a)! : []).map((e) => [e.path, e]));
      const right = new Map((b ? byOid.get(b)! : []).map((e) => [e.path, e]));
      for (const name of new Set([...left.keys(), ...right.keys()])) {
        const x = left.get(name);
        const y = right.get(name);
        if (x && y && x.oid === y.oid && x.mode === y.mode) continue;
        const path = `${prefix}${name}`;
        const xTree = x?.type === "tree" ? x : undefined;
        const yTree = y?.type === "tree" ? y : undefined;
        const xFile = x?.type === "blob" ? { path, mode: x.mode, oid: x.oid } : null;
        const yFile = y?.type === "blob" ? { path, mode: y.mode, oid: y.oid } : null;
        if (xTree && yTree) next.push([`${path}/`, xTree.oid, yTree.oid]);
        else {
          if (xTree) await all(`${path}/`, xTree.oid, "before");
          if (yTree) await all(`${path}/`, yTree.oid, "after");
        }
        if (xFile || yFile)
          changes.push({
            path,
            status: xFile && yFile ? "modified" : xFile ? "deleted" : "added",
            before: xFile,
            after: yFile,
          });
      }
    }
    level = next;
  }
  return changes.sort((p, q) => (p.path < q.path ? -1 : p.path > q.path ? 1 : 0));
}
