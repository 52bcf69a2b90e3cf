/**
 * Pull a remote branch into a project: fetch it (isomorphic-git `fetch` through the injected transport), then
 * fast-forward HEAD's branch to it, or merge it (isomorphic-git `merge`, refused on conflicts), and bring the
 * working tree and the index along — only the paths the pull changes, in one VFS flush. Never loses work: a path
 * the pull changes whose working-tree state differs from HEAD's (an uncommitted edit, an untracked file in the way,
 * a symlinked parent) refuses the whole pull with 409 naming the files, and nothing is written.
 */
import * as git from "isomorphic-git";
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem } from "isomorphic-git/models";
import { assertNoSymlinkEscape } from "@/lib/vfs/confine";
import { GitStats } from "@/lib/vfs/git-fs";
import { dirnamePosix } from "@/lib/vfs/paths";
import type { Vfs } from "@/lib/vfs/vfs";
import { RemoteError, remoteFailure } from "./errors";
import { headBranch } from "./push";
import { branchNameProblem } from "./refs";
import { authCallbacks, type Remote } from "./remote";
import { commitInfo, diffTrees, openRepo, type Repo, readBlob, type TreeChange } from "./tree";

/** What a pull did. */
export interface PullOutcome {
  status: "up_to_date" | "fast_forward" | "merged";
  /** HEAD's branch, which moved. */
  branch: string;
  remoteBranch: string;
  from: string | null;
  to: string | null;
  files: { path: string; status: TreeChange["status"] }[];
}

/** Who signs a merge commit. */
export interface PullAuthor {
  name: string;
  email: string;
}

/** The remote-tracking name a pull fetches into (`refs/remotes/strata-pull/<branch>`). */
const PULL_REMOTE = "strata-pull";
const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** git's blob id of `data`. */
async function blobOid(data: Uint8Array): Promise<string> {
  const header = encoder.encode(`blob ${data.length}\0`);
  const all = new Uint8Array(header.length + data.length);
  all.set(header);
  all.set(data, header.length);
  let oid = "";
  for (const b of new Uint8Array(await crypto.subtle.digest("SHA-1", all))) oid += HEX[b];
  return oid;
}

/** Whether the working tree has `path` exactly as `expected` (null: absent). */
async function matchesWorkingTree(repo: Repo, abs: string, expected: TreeChange["before"]): Promise<boolean> {
  const st = await repo.vfs.lstat(abs).catch(() => null);
  if (!st) return expected === null;
  if (!expected || st.kind === "dir") return false;
  if ((st.kind === "symlink") !== (expected.mode === "120000")) return false;
  if (st.kind === "file" && (st.mode & 0o111 ? "100755" : "100644") !== expected.mode) return false;
  const data =
    st.kind === "symlink" ? encoder.encode(await repo.vfs.readlink(abs)) : await repo.vfs.readFile(abs);
  return (await blobOid(data)) === expected.oid;
}

/** The changed paths whose working-tree state is not HEAD's (or the pull's result), or whose parent is a symlink. */
async function blockedPaths(repo: Repo, changes: TreeChange[]): Promise<string[]> {
  await repo.vfs.prefetch(
    changes.map((c) => `${repo.root}/${c.path}`),
    { withData: true },
  );
  const blocked: string[] = [];
  for (const c of changes) {
    const abs = `${repo.root}/${c.path}`;
    const parent = dirnamePosix(abs);
    const linked = await assertNoSymlinkEscape(repo.vfs, repo.root, parent).then(
      (real) => real !== parent,
      () => true,
    );
    if (linked) blocked.push(c.path);
    else if (
      !(await matchesWorkingTree(repo, abs, c.before)) &&
      !(await matchesWorkingTree(repo, abs, c.after))
    )
      blocked.push(c.path);
  }
  return blocked;
}

/** Write the changes to the working tree (deletions first, emptied folders removed) and the index. */
async function applyChanges(repo: Repo, changes: TreeChange[]): Promise<void> {
  const { vfs, root } = repo;
  for (const c of changes) {
    if (c.after) continue;
    const abs = `${root}/${c.path}`;
    if (await vfs.lstat(abs).catch(() => null)) await vfs.unlink(abs);
    for (let dir = dirnamePosix(abs); dir !== root; dir = dirnamePosix(dir)) {
      const st = await vfs.lstat(dir).catch(() => null);
      if (st?.kind !== "dir" || (await vfs.readdir(dir)).length > 0) break;
      await vfs.rmdir(dir);
    }
  }
  const staged: { filepath: string; stats: GitStats; oid: string }[] = [];
  for (const c of changes) {
    if (!c.after) continue;
    const abs = `${root}/${c.path}`;
    const data = await readBlob(repo, c.after.oid);
    const st = await vfs.lstat(abs).catch(() => null);
    if (c.after.mode === "120000") {
      if (st) await vfs.unlink(abs);
      await vfs.mkdir(dirnamePosix(abs), { recursive: true });
      await vfs.symlink(new TextDecoder().decode(data), abs);
    } else {
      if (st?.kind === "symlink") await vfs.unlink(abs);
      await vfs.writeFile(abs, data, { mode: c.after.mode === "100755" ? 0o100755 : 0o100644 });
    }
    staged.push({ filepath: c.path, stats: new GitStats(await vfs.lstat(abs), abs), oid: c.after.oid });
  }
  await GitIndexManager.acquire(
    { fs: new FileSystem(repo.gfs), gitdir: repo.gitdir, cache: {} },
    async (index) => {
      for (const c of changes) if (!c.after) index.delete({ filepath: c.path });
      for (const entry of staged) index.insert(entry);
    },
  );
}

/** Refuse paths no checkout may write (`.git` anywhere, `..`, empty components). */
function checkPaths(changes: TreeChange[]): void {
  const bad = changes.find((c) =>
    c.path.split("/").some((p) => p === "" || p === ".." || p.toLowerCase() === ".git"),
  );
  if (bad)
    throw new RemoteError(
      422,
      "unsafe_path",
      `Pull refused: the remote branch has an unsafe path (${bad.path.slice(0, 200)}).`,
    );
}

/**
 * Fetch `remoteBranch` of `remote` into `refs/remotes/strata-pull/<branch>` and return the fetched commit.
 * isomorphic-git's fetch needs the remote's refspec in the config; it is there only while fetching (the file's bytes
 * are put back afterwards, or the file removed when there was none).
 * @throws RemoteError from `remoteFailure` (unreachable, auth, a branch the remote does not have).
 */
async function fetchRemoteBranch(
  repo: Repo,
  remote: Remote,
  http: git.HttpClient,
  remoteBranch: string,
  ctx: Parameters<typeof remoteFailure>[2],
): Promise<string> {
  const { vfs } = repo;
  let theirs: string | null;
  const configPath = `${repo.gitdir}/config`;
  const config = await vfs.readFile(configPath).catch(() => null);
  try {
    const path = `remote.${PULL_REMOTE}.fetch`;
    await git.setConfig({
      fs: repo.gfs,
      gitdir: repo.gitdir,
      path,
      value: `+refs/heads/*:refs/remotes/${PULL_REMOTE}/*`,
    });
    const fetched = await git.fetch({
      fs: repo.gfs,
      http,
      gitdir: repo.gitdir,
      url: remote.url,
      remote: PULL_REMOTE,
      ref: remoteBranch,
      singleBranch: true,
      tags: false,
      cache: repo.cache,
      ...authCallbacks(remote),
    });
    theirs = fetched.fetchHead;
  } catch (error) {
    throw remoteFailure("pull", error, ctx);
  } finally {
    if (config) await vfs.writeFile(configPath, config);
    else await vfs.unlink(configPath).catch(() => undefined);
  }
  if (!theirs) throw remoteFailure("pull", { code: "NotFoundError" }, ctx);
  return theirs;
}

/**
 * Pull `remoteBranch` (default: HEAD's branch name) of `remote` into HEAD's branch of the project at `rootPath`,
 * then flush once.
 * @throws RemoteError 400 `detached_head` / `invalid_branch`, 404 `remote_branch_not_found`, 401 `remote_auth`,
 *   409 `pull_conflict` (uncommitted changes, `paths`) / `merge_conflict` (`paths`) / `merge_unsupported`,
 *   422 `unsafe_path`, 502 `remote_unreachable` / `remote_failed`; VfsConflictError when another writer changed
 *   one of the files meanwhile (nothing written).
 */
export async function pullFromRemote(
  vfs: Vfs,
  project: { rootPath: string },
  remote: Remote,
  http: git.HttpClient,
  request: { remoteBranch?: string; author: PullAuthor },
): Promise<PullOutcome> {
  const repo = openRepo(vfs, project.rootPath);
  const branch = await headBranch(repo).catch(() => null);
  if (!branch)
    throw new RemoteError(400, "detached_head", "HEAD is not on a branch, so there is nothing to pull into.");
  const remoteBranch = request.remoteBranch ?? branch;
  const problem = branchNameProblem(remoteBranch);
  if (problem) throw new RemoteError(400, "invalid_branch", problem);
  const ctx = { host: remote.host, branch: remoteBranch, credential: remote.credential };
  const theirs = await fetchRemoteBranch(repo, remote, http, remoteBranch, ctx);
  const ours = await git
    .resolveRef({ fs: repo.gfs, gitdir: repo.gitdir, ref: `refs/heads/${branch}` })
    .catch(() => null);
  const base = { branch, remoteBranch, from: ours };
  const isAncestor = (oid: string, ancestor: string) =>
    git.isDescendent({ fs: repo.gfs, gitdir: repo.gitdir, oid, ancestor, depth: -1, cache: repo.cache });
  if (ours && (ours === theirs || (await isAncestor(ours, theirs)))) {
    await vfs.flush(); // the fetched objects, if any: the next pull need not fetch them again
    return { status: "up_to_date", ...base, to: ours, files: [] };
  }
  let target = theirs;
  let status: PullOutcome["status"] = "fast_forward";
  if (ours && !(await isAncestor(theirs, ours))) {
    status = "merged";
    target = await mergeCommit(repo, branch, theirs, remoteBranch, remote, request.author);
  }
  const changes = await diffTrees(
    repo,
    ours ? (await commitInfo(repo, ours)).tree : null,
    (await commitInfo(repo, target)).tree,
  );
  checkPaths(changes);
  const blocked = await blockedPaths(repo, changes);
  if (blocked.length > 0)
    throw new RemoteError(
      409,
      "pull_conflict",
      `Pull refused: these files have changes that are not committed, and the pull would change them: ${blocked.join(", ")}. Commit them (e.g. !git commit -am "…" in the chat) or undo them, then pull again.`,
      blocked,
    );
  await applyChanges(repo, changes);
  await git.writeRef({
    fs: repo.gfs,
    gitdir: repo.gitdir,
    ref: `refs/heads/${branch}`,
    value: target,
    force: true,
  });
  await vfs.flush();
  return { status, ...base, to: target, files: changes.map((c) => ({ path: c.path, status: c.status })) };
}

/** The merge commit of `theirs` into `branch` (the branch itself does not move yet). */
async function mergeCommit(
  repo: Repo,
  branch: string,
  theirs: string,
  remoteBranch: string,
  remote: Remote,
  author: PullAuthor,
): Promise<string> {
  const signature = { name: author.name, email: author.email };
  try {
    const result = await git.merge({
      fs: repo.gfs,
      gitdir: repo.gitdir,
      ours: branch,
      theirs,
      fastForward: false,
      noUpdateBranch: true,
      abortOnConflict: true,
      message: `Merge branch '${remoteBranch}' of ${remote.url}`,
      author: signature,
      committer: signature,
      cache: repo.cache,
    });
    if (!result.oid) throw new Error("the merge made no commit");
    return result.oid;
  } catch (error) {
    const e = error as { code?: string; data?: { filepaths?: string[] } };
    if (e.code === "MergeConflictError") {
      const paths = [...(e.data?.filepaths ?? [])].sort();
      throw new RemoteError(
        409,
        "merge_conflict",
        `Pull refused: ${remoteBranch} and ${branch} both changed these files and they do not merge cleanly: ${paths.join(", ")}. Nothing was changed. Resolve it outside Strata (merge and push to ${remoteBranch}), then pull again.`,
        paths,
      );
    }
    if (e.code === "MergeNotSupportedError")
      throw new RemoteError(
        409,
        "merge_unsupported",
        `Pull refused: ${remoteBranch} has no common history with ${branch} that Strata can merge. Nothing was changed.`,
      );
    throw error;
  }
}
