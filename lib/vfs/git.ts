/**
 * Git on the VFS: repository setup, whole-tree commits, smart-HTTP clone and per-turn checkpoints, all
 * through isomorphic-git over `createGitFs(vfs)`. Nothing here flushes: every function leaves its
 * changes in the `Vfs` cache and the caller commits them with `vfs.flush()` (one transaction).
 *
 * Paths: `dir` is the absolute VFS path of the working tree (e.g. "/projects/p1"); the git directory is
 * always `${dir}/.git`. Object ids are 40-hex SHA-1 strings.
 *
 * The clone (lib/vfs/git-clone.ts), the checkpoints (lib/vfs/git-checkpoint.ts) and the loose-object writers
 * (lib/vfs/git-objects.ts) live in files of their own and are re-exported here.
 */

import * as git from "isomorphic-git";
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem } from "isomorphic-git/models";
import { createGitFs, GitStats } from "./git-fs";
import { unholdablePaths, withSkippedNote } from "./git-holdable";
import { type GitAuthor, type GitFs, resolveOrNull, signature, writeLooseObject } from "./git-objects";
import { normalizePosix } from "./paths";
import type { Vfs } from "./vfs";

export { checkpoint } from "./git-checkpoint";
export { cloneRepository, type GitProgress } from "./git-clone";
export { type GitAuthor, writeLooseObject, writeTreeObject } from "./git-objects";

/** One commit as `log` returns it. */
export interface GitLogEntry {
  oid: string;
  message: string;
  /** Tree object id. */
  tree: string;
  parents: string[];
  author: Required<GitAuthor>;
  committer: Required<GitAuthor>;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function gitdirOf(dir: string): string {
  return `${normalizePosix(dir)}/.git`;
}

/**
 * `git init` in `dir` (created if missing) with `defaultBranch` (default "main") as the unborn HEAD.
 * Idempotent: an existing repository is left as it is.
 */
export async function initRepository(
  fs: Vfs,
  dir: string,
  options: { defaultBranch?: string } = {},
): Promise<void> {
  const root = normalizePosix(dir);
  await fs.mkdir(root, { recursive: true });
  await git.init({ fs: createGitFs(fs), dir: root, defaultBranch: options.defaultBranch ?? "main" });
}

/**
 * Stage every change of the working tree (new and modified files, deletions; untracked files matched by
 * `.gitignore` or `.git/info/exclude` are left out) and commit it on the current branch, like
 * `git add -A && git commit`. Makes a commit even when nothing changed. A path with a name git cannot hold
 * (lib/vfs/names.ts `gitNameProblem`; old data) is left out, and listed with its reason in the commit message
 * (lib/vfs/git-holdable.ts `withSkippedNote`).
 * @returns the new commit's oid.
 * @throws isomorphic-git errors (e.g. `NotFoundError` when `dir` is not a repository).
 */
export async function commitAll(
  fs: Vfs,
  dir: string,
  options: { message: string; author: GitAuthor },
): Promise<string> {
  const root = normalizePosix(dir);
  const gfs = createGitFs(fs);
  const cache = {};
  // isomorphic-git does not see these (lib/vfs/git-fs.ts): they are found to be recorded.
  const skipped = await unholdablePaths(fs, root);
  const matrix = await git.statusMatrix({ fs: gfs, dir: root, cache });
  const add: string[] = [];
  const remove: string[] = [];
  for (const [filepath, head, workdir, stage] of matrix) {
    if (workdir === 0) {
      if (stage !== 0) remove.push(filepath);
    } else if (!(head === 1 && workdir === 1 && stage === 1)) add.push(filepath);
  }
  if (add.length > 0) await stageFiles(fs, gfs, root, add, cache);
  // The index was rewritten through isomorphic-git/managers, whose cache is its own: read it afresh.
  const fresh = {};
  for (const filepath of remove) await git.remove({ fs: gfs, dir: root, filepath, cache: fresh });
  const author = signature(options.author);
  return git.commit({
    fs: gfs,
    dir: root,
    message: withSkippedNote(options.message, skipped),
    author,
    committer: author,
    cache: fresh,
  });
}

/**
 * `git add` of many working-tree files (already filtered for .gitignore): blobs written in bulk, then
 * one index update through isomorphic-git's own index manager.
 */
async function stageFiles(
  fs: Vfs,
  gfs: GitFs,
  root: string,
  filepaths: string[],
  cache: object,
): Promise<void> {
  const gitdir = `${root}/.git`;
  const abs = filepaths.map((f) => `${root}/${f}`);
  await fs.prefetch(abs, { withData: true });
  const staged = await Promise.all(
    filepaths.map(async (filepath, i) => {
      const st = await fs.lstat(abs[i]);
      const data =
        st.kind === "symlink" ? encoder.encode(await fs.readlink(abs[i])) : await fs.readFile(abs[i]);
      const oid = await writeLooseObject(fs, gitdir, "blob", data);
      return { filepath, stats: new GitStats(st, abs[i]), oid };
    }),
  );
  await GitIndexManager.acquire({ fs: new FileSystem(gfs), gitdir, cache }, async (index) => {
    for (const entry of staged) index.insert(entry);
  });
}

// ---- reading ----------------------------------------------------------------------------------

/**
 * The bytes of `filepath` (relative to `dir`, "/"-separated) in commit (or tree) `oid`.
 * @throws isomorphic-git `NotFoundError` when the commit or the path does not exist.
 */
export async function readBlobAt(fs: Vfs, dir: string, oid: string, filepath: string): Promise<Uint8Array> {
  const { blob } = await git.readBlob({ fs: createGitFs(fs), gitdir: gitdirOf(dir), oid, filepath });
  return blob;
}

/** The same, decoded as UTF-8. */
export async function readTextAt(fs: Vfs, dir: string, oid: string, filepath: string): Promise<string> {
  return decoder.decode(await readBlobAt(fs, dir, oid, filepath));
}

/**
 * Commits reachable from `ref` (default "HEAD"), newest first, following first and other parents like
 * `git log`; `depth` caps the count.
 * @throws isomorphic-git `NotFoundError` when `ref` does not exist.
 */
export async function log(fs: Vfs, dir: string, ref = "HEAD", depth?: number): Promise<GitLogEntry[]> {
  const commits = await git.log({ fs: createGitFs(fs), gitdir: gitdirOf(dir), ref, depth, cache: {} });
  return commits.map(({ oid, commit }) => ({
    oid,
    message: commit.message,
    tree: commit.tree,
    parents: commit.parent,
    author: commit.author,
    committer: commit.committer,
  }));
}

/** The commit oid `ref` points at, or null when it does not exist. */
export async function resolveRef(fs: Vfs, dir: string, ref: string): Promise<string | null> {
  return resolveOrNull(createGitFs(fs), gitdirOf(dir), ref);
}
