/**
 * Git on the VFS: repository setup, whole-tree commits, smart-HTTP clone and per-turn checkpoints, all
 * through isomorphic-git over `createGitFs(vfs)`. Nothing here flushes: every function leaves its
 * changes in the `Vfs` cache and the caller commits them with `vfs.flush()` (one transaction).
 *
 * Paths: `dir` is the absolute VFS path of the working tree (e.g. "/projects/p1"); the git directory is
 * always `${dir}/.git`. Object ids are 40-hex SHA-1 strings.
 */

import { zlibSync } from "fflate";
import * as git from "isomorphic-git";
import webHttp from "isomorphic-git/http/web";
import { GitIndexManager } from "isomorphic-git/managers";
import { FileSystem } from "isomorphic-git/models";
import { isCheckpointExcluded } from "./checkpoint-ignore";
import { createGitFs, GitStats } from "./git-fs";
import {
  holdablePaths,
  readTreeLenient,
  type SkippedPath,
  unholdablePaths,
  withSkippedNote,
} from "./git-holdable";
import { gitNameProblem, quoteName } from "./names";
import { normalizePosix } from "./paths";
import type { Vfs } from "./vfs";

/** Who made a commit. `timestamp` is seconds since the epoch (default: now); `timezoneOffset` minutes (default 0). */
export interface GitAuthor {
  name: string;
  email: string;
  timestamp?: number;
  timezoneOffset?: number;
}

/** isomorphic-git's progress event (`phase` such as "Receiving objects", `loaded`/`total` counts). */
export type GitProgress = git.GitProgressEvent;

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

type GitFs = ReturnType<typeof createGitFs>;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function gitdirOf(dir: string): string {
  return `${normalizePosix(dir)}/.git`;
}

function signature(author: GitAuthor): Required<GitAuthor> {
  return {
    name: author.name,
    email: author.email,
    timestamp: author.timestamp ?? Math.floor(Date.now() / 1000),
    timezoneOffset: author.timezoneOffset ?? 0,
  };
}

function objectPath(gitdir: string, oid: string): string {
  return `${gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
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

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * Write one loose object (`type` "blob" or "tree") unless it exists; returns its oid. fflate's zlib
 * (level 1) instead of isomorphic-git's per-object `CompressionStream`, which costs ~3.5 ms an object
 * when thousands run at once.
 */
export async function writeLooseObject(
  fs: Vfs,
  gitdir: string,
  type: string,
  content: Uint8Array,
): Promise<string> {
  const header = encoder.encode(`${type} ${content.length}\0`);
  const wrapped = new Uint8Array(header.length + content.length);
  wrapped.set(header);
  wrapped.set(content, header.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", wrapped));
  let oid = "";
  for (const b of digest) oid += HEX[b];
  const path = objectPath(gitdir, oid);
  if (!(await fs.exists(path))) await fs.writeFile(path, zlibSync(wrapped, { level: 1 }));
  return oid;
}

/**
 * Write a tree object from its entries (any order; sorted the way git sorts, directories as "name/").
 * @throws Error for an entry name git cannot hold (`gitNameProblem`): such a tree could never be read back.
 */
export async function writeTreeObject(fs: Vfs, gitdir: string, entries: git.TreeEntry[]): Promise<string> {
  for (const e of entries) {
    const problem = gitNameProblem(e.path);
    if (problem) throw new Error(`Cannot write a git tree entry named ${quoteName(e.path)}: ${problem}`);
  }
  const key = (e: git.TreeEntry) => (e.type === "tree" ? `${e.path}/` : e.path);
  const sorted = [...entries].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const parts = sorted.map((e) => {
    const head = encoder.encode(`${e.mode.replace(/^0/, "")} ${e.path}\0`);
    const part = new Uint8Array(head.length + 20);
    part.set(head);
    for (let i = 0; i < 20; i++) part[head.length + i] = Number.parseInt(e.oid.slice(2 * i, 2 * i + 2), 16);
    return part;
  });
  const content = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    content.set(p, o);
    o += p.length;
  }
  return writeLooseObject(fs, gitdir, "tree", content);
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

/** The URL as shown in messages: credentials removed. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

/** A clear `Error` for a failed clone; the original is kept as `cause`. */
function cloneError(url: string, error: unknown, signal?: AbortSignal): Error {
  const shown = displayUrl(url);
  const e = error as {
    code?: string;
    message?: string;
    data?: { statusCode?: number; statusMessage?: string };
  };
  let reason: string;
  if (signal?.aborted) {
    const err = new Error(`Clone of ${shown} was aborted`, { cause: error });
    err.name = "AbortError";
    return err;
  }
  // The guarded transport's one generic text for a refused or unreachable destination (lib/net/git-http.ts):
  // kept as it is, so it says nothing about the URL's host or port.
  if (e?.code === "GitImportUnreachable" && error instanceof Error) return error;
  if (e?.code === "HttpError" && e.data?.statusCode) {
    const status = `HTTP ${e.data.statusCode}${e.data.statusMessage ? ` ${e.data.statusMessage}` : ""}`;
    if (e.data.statusCode === 401 || e.data.statusCode === 403)
      reason = `authentication required or access denied (${status})`;
    else if (e.data.statusCode === 404) reason = `repository not found (${status})`;
    else reason = `the server answered ${status}`;
  } else if (e?.code === "SmartHttpError") {
    reason = "the server did not answer as a git smart-HTTP server";
  } else if (e?.code === "NotFoundError") {
    reason = e.message ?? "not found";
  } else if (error instanceof TypeError && /fetch failed|network/i.test(error.message)) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    reason = `could not connect (${cause?.code ?? cause?.message ?? error.message})`;
  } else {
    reason = e?.message ?? String(error);
  }
  return new Error(`Cannot clone ${shown}: ${reason}`, { cause: error });
}

/**
 * Clone `url` (http(s) smart protocol) into `dir`: a normal repository with `origin` configured, the
 * branch `ref` (default: the remote's default branch) checked out in the working tree, only that branch
 * fetched, `depth` commits of history when given.
 *
 * Contract: on success the clone is in the VFS cache and the caller flushes it. On failure nothing is
 * left behind: every unflushed change below `dir` made by this call is discarded (`Vfs.discard`), so a
 * later flush writes nothing there. Call it on a VFS with no other unflushed changes below `dir`.
 *
 * @param options.onProgress isomorphic-git progress events (fetch and checkout phases).
 * @param options.signal aborts the HTTP transfer and the checkout.
 * @param options.http the transport (default: isomorphic-git's `fetch` client, which reaches any address and
 *   follows redirects itself — for trusted URLs only). A URL from a user goes through the guarded client of
 *   `lib/net/git-http.ts` (public addresses only, every redirect hop checked); its refusals keep their one
 *   generic message (`GIT_IMPORT_UNREACHABLE`) instead of "Cannot clone …".
 * @throws Error "Cannot clone <url>: <reason>" (bad URL, HTTP 404/401/403, connection refused, unknown
 *   ref, non-git server), "Cannot clone <url> into <dir>: directory is not empty", or an `AbortError`
 *   "Clone of <url> was aborted", or the guarded transport's `GitImportUnreachableError` as it is. Credentials
 *   in the URL are never shown.
 */
export async function cloneRepository(
  fs: Vfs,
  dir: string,
  url: string,
  options: {
    ref?: string;
    depth?: number;
    onProgress?: (p: GitProgress) => void;
    signal?: AbortSignal;
    http?: git.HttpClient;
  } = {},
): Promise<void> {
  const root = normalizePosix(dir);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Cannot clone ${url}: not a valid URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new Error(`Cannot clone ${displayUrl(url)}: only http(s) URLs are supported`);
  const existed = await fs.exists(root);
  if (existed && (await fs.readdir(root)).length > 0)
    throw new Error(`Cannot clone ${displayUrl(url)} into ${root}: directory is not empty`);
  const { signal, onProgress } = options;
  const transport = options.http ?? webHttp;
  // isomorphic-git's pkt-line reader swallows an error thrown while a response body streams (it sees a short
  // body): keep the first one, so the clone fails with it (a size limit, a reset) and never succeeds on a cut body.
  let bodyError: unknown;
  async function* watched(body: AsyncIterableIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
    try {
      yield* body;
    } catch (error) {
      bodyError ??= error;
      throw error;
    }
  }
  const http: git.HttpClient = {
    request: async (req) => {
      const res = await transport.request({ ...req, signal: signal ?? undefined });
      return res.body ? { ...res, body: watched(res.body) } : res;
    },
  };
  try {
    signal?.throwIfAborted();
    await fs.mkdir(root, { recursive: true });
    await git.clone({
      fs: createGitFs(fs),
      http,
      dir: root,
      url,
      ref: options.ref,
      depth: options.depth,
      singleBranch: true,
      cache: {},
      onProgress: (p) => {
        signal?.throwIfAborted();
        onProgress?.(p);
      },
    });
    signal?.throwIfAborted();
    if (bodyError) throw bodyError;
  } catch (error) {
    fs.discard(root);
    if (existed) await fs.mkdir(root, { recursive: true });
    throw cloneError(url, bodyError ?? error, signal);
  }
}

// ---- checkpoints ------------------------------------------------------------------------------

interface TreeNode {
  entries: Map<string, git.TreeEntry>;
  dirty: boolean;
}

function parentRel(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

function baseRel(rel: string): string {
  return rel.slice(rel.lastIndexOf("/") + 1);
}

function depthOf(rel: string): number {
  return rel === "" ? 0 : rel.split("/").length;
}

/** Resolve `ref` to a commit oid, or null when it does not exist (or is an unborn branch). */
async function resolveOrNull(gfs: GitFs, gitdir: string, ref: string): Promise<string | null> {
  try {
    return await git.resolveRef({ fs: gfs, gitdir, ref });
  } catch (error) {
    if ((error as { code?: string }).code === "NotFoundError") return null;
    throw error;
  }
}

/**
 * Commit exactly `changedPaths` of the working tree onto `ref`, without touching HEAD, its branch or the
 * index: a per-turn checkpoint of an agent session.
 *
 * The new commit's parent is the current value of `ref`, or HEAD's commit when `ref` does not exist yet
 * (none in an empty repository); its tree is the parent's tree with each changed path set to its working
 * tree state: a file or symlink is (re)hashed, a missing path is deleted (a whole subtree when it was a
 * directory), an existing directory only replaces a file of that name. Paths outside `dir` or under
 * `.git` (the project's or a nested repository's) are ignored, and so are untracked paths matched by `.gitignore`
 * or by the built-in excludes (`__pycache__/`, `node_modules/`, …: lib/vfs/checkpoint-ignore.ts); tracked ones are
 * always recorded, as in git. A path with a name git cannot hold (`gitNameProblem`; old data) is
 * left out and listed with its reason in the commit message; a parent tree holding such a name (written before
 * this rule) is read without it and rewritten where the commit touches it.
 *
 * Round trips: one metadata load of `.git`, one data load for refs, one per tree level touched, and
 * one for `.gitignore` files when new files appear; the caller's `flush()` adds the write transaction.
 *
 * @param options.changedPaths absolute VFS paths, e.g. from `vfs.dirtyPaths()`.
 * @param options.ref full ref name, e.g. "refs/heads/strata/session-<id>"; it is moved to the new commit.
 * @param options.parent the commit to build on (docs/checkpoints.md: the leaf's commit); omitted, the ref's commit,
 *   else HEAD's. With `parent`, the tree is compared with the parent's: null when equal.
 * @returns `{ oid, skipped }` of the new commit (`skipped`: the paths left out, project-relative, with why), or null
 *   when the tree equals the parent's (nothing changed).
 */
export async function checkpoint(
  fs: Vfs,
  dir: string,
  options: {
    changedPaths: string[];
    ref: string;
    message: string;
    author: GitAuthor;
    parent?: string | null;
  },
): Promise<{ oid: string; skipped: SkippedPath[] } | null> {
  const root = normalizePosix(dir);
  const gitdir = `${root}/.git`;
  const inside = new Set<string>();
  for (const raw of options.changedPaths) {
    const p = normalizePosix(raw);
    if (p.startsWith(`${root}/`)) inside.add(p.slice(root.length + 1));
  }
  const { keep, skipped } = holdablePaths(inside);
  const rels = new Set(keep);
  if (rels.size === 0) return null;

  const gfs = createGitFs(fs);
  const cache = {};
  // 1. Metadata of all of .git (objects included: existence checks become free), then the small ref files.
  await fs.preload(gitdir, { withData: false });
  await fs.prefetch([`${gitdir}/HEAD`, `${gitdir}/packed-refs`, `${gitdir}/${options.ref}`], {
    withData: true,
  });
  let parent = options.parent !== undefined ? options.parent : await resolveOrNull(gfs, gitdir, options.ref);
  if (!parent && options.parent === undefined) {
    const head = /^ref: *(\S+)/.exec(await fs.readText(`${gitdir}/HEAD`));
    if (head) await fs.prefetch([`${gitdir}/${head[1]}`], { withData: true });
    parent = await resolveOrNull(gfs, gitdir, "HEAD");
  }
  let baseTree: string | null = null;
  if (parent) {
    await fs.prefetch([objectPath(gitdir, parent)], { withData: true });
    baseTree = (await git.readCommit({ fs: gfs, gitdir, oid: parent, cache })).commit.tree;
  }

  // 2. Load the parent's trees along the changed paths, one batched data load per level.
  const nodes = new Map<string, TreeNode>();
  const readNode = async (oid: string): Promise<TreeNode> => {
    // A name git cannot hold (an older checkpoint's) is left out: the tree is rewritten without it.
    const { entries, dropped } = await readTreeLenient(gfs, gitdir, oid, cache);
    return { entries: new Map(entries.map((e) => [e.path, e])), dirty: dropped.length > 0 };
  };
  if (baseTree) {
    await fs.prefetch([objectPath(gitdir, baseTree)], { withData: true });
    nodes.set("", await readNode(baseTree));
  } else nodes.set("", { entries: new Map(), dirty: false });
  const dirsByDepth = new Map<number, Set<string>>();
  for (const rel of rels) {
    for (let d = parentRel(rel); d !== ""; d = parentRel(d)) {
      const depth = depthOf(d);
      if (!dirsByDepth.has(depth)) dirsByDepth.set(depth, new Set());
      dirsByDepth.get(depth)!.add(d);
    }
    // A deleted path may be a whole directory: load it too, so its subtree is known.
    const depth = depthOf(rel);
    if (!dirsByDepth.has(depth)) dirsByDepth.set(depth, new Set());
    dirsByDepth.get(depth)!.add(rel);
  }
  const maxDepth = Math.max(0, ...dirsByDepth.keys());
  for (let depth = 1; depth <= maxDepth; depth++) {
    const need: [string, string][] = [];
    for (const d of dirsByDepth.get(depth) ?? []) {
      const e = nodes.get(parentRel(d))?.entries.get(baseRel(d));
      if (e?.type === "tree") need.push([d, e.oid]);
    }
    if (need.length === 0) continue;
    await fs.prefetch(
      need.map(([, oid]) => objectPath(gitdir, oid)),
      { withData: true },
    );
    for (const [d, oid] of need) nodes.set(d, await readNode(oid));
  }

  // 3. The working-tree state of each changed path.
  const sorted = [...rels].sort();
  await fs.prefetch(
    sorted.map((r) => `${root}/${r}`),
    { withData: true },
  );
  const states = new Map<string, Awaited<ReturnType<Vfs["lstat"]>> | null>();
  for (const rel of sorted) states.set(rel, await fs.lstat(`${root}/${rel}`).catch(() => null));
  const tracked = (rel: string) => nodes.get(parentRel(rel))?.entries.has(baseRel(rel)) ?? false;
  const untrackedAdds = sorted.filter((rel) => {
    const st = states.get(rel);
    return st && st.kind !== "dir" && !tracked(rel);
  });
  const ignored = new Set(untrackedAdds.filter(isCheckpointExcluded));
  if (untrackedAdds.length > ignored.size) {
    const candidates = new Set<string>([`${gitdir}/info/exclude`]);
    for (const rel of untrackedAdds.filter((r) => !ignored.has(r)))
      for (let d = parentRel(rel); ; d = parentRel(d)) {
        candidates.add(d === "" ? `${root}/.gitignore` : `${root}/${d}/.gitignore`);
        if (d === "") break;
      }
    await fs.prefetch([...candidates], { withData: true });
    for (const rel of untrackedAdds)
      if (!ignored.has(rel) && (await git.isIgnored({ fs: gfs, dir: root, gitdir, filepath: rel })))
        ignored.add(rel);
  }

  // 4. Apply: set blobs, delete entries, create intermediate trees.
  const markDirty = (d: string) => {
    nodes.get(d)!.dirty = true;
  };
  const ensureDir = (d: string): TreeNode => {
    const known = nodes.get(d);
    if (known) return known;
    const parentNode = ensureDir(parentRel(d));
    const node: TreeNode = { entries: new Map(), dirty: true };
    parentNode.entries.delete(baseRel(d));
    parentNode.dirty = true;
    nodes.set(d, node);
    return node;
  };
  const dropSubtree = (d: string) => {
    for (const key of [...nodes.keys()]) if (key === d || key.startsWith(`${d}/`)) nodes.delete(key);
  };
  for (const rel of sorted) {
    const st = states.get(rel);
    const name = baseRel(rel);
    const pdir = parentRel(rel);
    if (!st || st.kind === "dir") {
      const node = nodes.get(pdir);
      const entry = node?.entries.get(name);
      if (!node || !entry) continue;
      if (st && entry.type === "tree") continue;
      node.entries.delete(name);
      markDirty(pdir);
      if (entry.type === "tree") dropSubtree(rel);
      continue;
    }
    if (ignored.has(rel)) continue;
    const abs = `${root}/${rel}`;
    const blob = st.kind === "symlink" ? encoder.encode(await fs.readlink(abs)) : await fs.readFile(abs);
    const mode = st.kind === "symlink" ? "120000" : st.mode === 0o100755 ? "100755" : "100644";
    const node = ensureDir(pdir);
    const old = node.entries.get(name);
    if (old?.type === "tree") dropSubtree(rel);
    const oid = await writeLooseObject(fs, gitdir, "blob", blob);
    if (old?.oid === oid && old.mode === mode) continue;
    node.entries.set(name, { mode, path: name, oid, type: "blob" });
    markDirty(pdir);
  }

  // 5. Write dirty trees bottom-up; an emptied tree disappears from its parent.
  const order = [...nodes.keys()].sort((a, b) => depthOf(b) - depthOf(a));
  for (const d of order) {
    const node = nodes.get(d);
    if (!node?.dirty || d === "") continue;
    const parentNode = nodes.get(parentRel(d))!;
    parentNode.dirty = true;
    if (node.entries.size === 0) {
      parentNode.entries.delete(baseRel(d));
      continue;
    }
    const oid = await writeTreeObject(fs, gitdir, [...node.entries.values()]);
    parentNode.entries.set(baseRel(d), { mode: "040000", path: baseRel(d), oid, type: "tree" });
  }
  const rootNode = nodes.get("")!;
  const tree = rootNode.dirty ? await writeTreeObject(fs, gitdir, [...rootNode.entries.values()]) : baseTree;
  if (tree === baseTree || (!parent && rootNode.entries.size === 0)) return null;

  const author = signature(options.author);
  const noted = withSkippedNote(options.message, skipped);
  const message = noted.endsWith("\n") ? noted : `${noted}\n`;
  const oid = await git.writeCommit({
    fs: gfs,
    gitdir,
    commit: { message, tree: tree!, parent: parent ? [parent] : [], author, committer: author },
  });
  await git.writeRef({ fs: gfs, gitdir, ref: options.ref, value: oid, force: true });
  return { oid, skipped };
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
