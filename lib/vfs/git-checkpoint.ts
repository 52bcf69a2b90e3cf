/**
 * Per-turn checkpoints on the VFS (re-exported by lib/vfs/git.ts): a commit of exactly the changed paths of the
 * working tree onto a ref, built from the parent's trees along those paths, without touching HEAD, its branch or the
 * index. Nothing here flushes: the objects and the ref stay in the `Vfs` cache until the caller's `vfs.flush()`.
 */

import * as git from "isomorphic-git";
import { isCheckpointExcluded } from "./checkpoint-ignore";
import { createGitFs } from "./git-fs";
import { holdablePaths, readTreeLenient, type SkippedPath, withSkippedNote } from "./git-holdable";
import {
  type GitAuthor,
  type GitFs,
  objectPath,
  resolveOrNull,
  signature,
  writeLooseObject,
  writeTreeObject,
} from "./git-objects";
import { normalizePosix } from "./paths";
import type { Vfs } from "./vfs";

const encoder = new TextEncoder();

/** One tree of the checkpoint being built, keyed by its project-relative directory ("" is the root tree). */
interface TreeNode {
  entries: Map<string, git.TreeEntry>;
  dirty: boolean;
}

/** The trees the checkpoint touches, by project-relative directory. */
type TreeNodes = Map<string, TreeNode>;

/** A changed path's working-tree state (`lstat`), null when it is gone. */
type WorkingStates = Map<string, Awaited<ReturnType<Vfs["lstat"]>> | null>;

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

/**
 * The project-relative paths of `changedPaths` that lie below `root` (others are ignored), split into those git
 * can hold (`rels`) and those left out with why (`skipped`, lib/vfs/git-holdable.ts `holdablePaths`).
 */
function changedRels(root: string, changedPaths: string[]): { rels: Set<string>; skipped: SkippedPath[] } {
  const inside = new Set<string>();
  for (const raw of changedPaths) {
    const p = normalizePosix(raw);
    if (p.startsWith(`${root}/`)) inside.add(p.slice(root.length + 1));
  }
  const { keep, skipped } = holdablePaths(inside);
  return { rels: new Set(keep), skipped };
}

/**
 * The checkpoint's parent commit: `given` when it is set (null included), else `ref`'s commit, else HEAD's (null in
 * an empty repository). Loads the metadata of all of `.git` first (objects included: existence checks become free),
 * then the small ref files.
 */
async function checkpointParent(
  fs: Vfs,
  gfs: GitFs,
  gitdir: string,
  ref: string,
  given: string | null | undefined,
): Promise<string | null> {
  await fs.preload(gitdir, { withData: false });
  await fs.prefetch([`${gitdir}/HEAD`, `${gitdir}/packed-refs`, `${gitdir}/${ref}`], {
    withData: true,
  });
  let parent = given !== undefined ? given : await resolveOrNull(gfs, gitdir, ref);
  if (!parent && given === undefined) {
    const head = /^ref: *(\S+)/.exec(await fs.readText(`${gitdir}/HEAD`));
    if (head) await fs.prefetch([`${gitdir}/${head[1]}`], { withData: true });
    parent = await resolveOrNull(gfs, gitdir, "HEAD");
  }
  return parent;
}

/** The tree of commit `parent` (its object loaded first), or null without a parent. */
async function parentTree(
  fs: Vfs,
  gfs: GitFs,
  gitdir: string,
  parent: string | null,
  cache: object,
): Promise<string | null> {
  if (!parent) return null;
  await fs.prefetch([objectPath(gitdir, parent)], { withData: true });
  return (await git.readCommit({ fs: gfs, gitdir, oid: parent, cache })).commit.tree;
}

/**
 * Every directory along the changed paths, grouped by depth; each changed path is one too, since a deleted path may
 * be a whole directory whose subtree must be known.
 */
function dirsByDepth(rels: Set<string>): Map<number, Set<string>> {
  const byDepth = new Map<number, Set<string>>();
  for (const rel of rels) {
    for (let d = parentRel(rel); d !== ""; d = parentRel(d)) {
      const depth = depthOf(d);
      if (!byDepth.has(depth)) byDepth.set(depth, new Set());
      byDepth.get(depth)!.add(d);
    }
    // A deleted path may be a whole directory: load it too, so its subtree is known.
    const depth = depthOf(rel);
    if (!byDepth.has(depth)) byDepth.set(depth, new Set());
    byDepth.get(depth)!.add(rel);
  }
  return byDepth;
}

/** The parent's trees along the changed paths (the root's first), one batched data load per level. */
async function loadTreesAlong(
  fs: Vfs,
  gfs: GitFs,
  gitdir: string,
  baseTree: string | null,
  rels: Set<string>,
  cache: object,
): Promise<TreeNodes> {
  const nodes: TreeNodes = new Map();
  const readNode = async (oid: string): Promise<TreeNode> => {
    // A name git cannot hold (an older checkpoint's) is left out: the tree is rewritten without it.
    const { entries, dropped } = await readTreeLenient(gfs, gitdir, oid, cache);
    return { entries: new Map(entries.map((e) => [e.path, e])), dirty: dropped.length > 0 };
  };
  if (baseTree) {
    await fs.prefetch([objectPath(gitdir, baseTree)], { withData: true });
    nodes.set("", await readNode(baseTree));
  } else nodes.set("", { entries: new Map(), dirty: false });
  const byDepth = dirsByDepth(rels);
  const maxDepth = Math.max(0, ...byDepth.keys());
  for (let depth = 1; depth <= maxDepth; depth++) {
    const need: [string, string][] = [];
    for (const d of byDepth.get(depth) ?? []) {
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
  return nodes;
}

/** The working-tree state of each changed path (`sorted`, project-relative), loaded in one batch. */
async function workingStates(fs: Vfs, root: string, sorted: string[]): Promise<WorkingStates> {
  await fs.prefetch(
    sorted.map((r) => `${root}/${r}`),
    { withData: true },
  );
  const states: WorkingStates = new Map();
  for (const rel of sorted) states.set(rel, await fs.lstat(`${root}/${rel}`).catch(() => null));
  return states;
}

/**
 * The new untracked files (not in the parent's tree) the checkpoint leaves out: those matched by the built-in
 * excludes (lib/vfs/checkpoint-ignore.ts), then by `.gitignore` or `.git/info/exclude` (their files loaded in one
 * batch, only when some new file is left to check). Tracked paths are always recorded, as in git.
 */
async function ignoredAdds(
  fs: Vfs,
  gfs: GitFs,
  root: string,
  sorted: string[],
  states: WorkingStates,
  nodes: TreeNodes,
): Promise<Set<string>> {
  const gitdir = `${root}/.git`;
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
  return ignored;
}

/**
 * Set each changed path of the trees to its working-tree state: a file or symlink becomes a blob (written unless it
 * exists; intermediate trees created), a missing path is deleted (a whole subtree when it was a directory), an
 * existing directory only replaces a file of that name. Changed trees are marked dirty.
 */
async function applyWorkingTree(
  fs: Vfs,
  root: string,
  sorted: string[],
  states: WorkingStates,
  ignored: Set<string>,
  nodes: TreeNodes,
): Promise<void> {
  const gitdir = `${root}/.git`;
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
}

/**
 * Write the dirty trees bottom-up (an emptied tree disappears from its parent) and return the root tree's oid:
 * `baseTree` when the root did not change.
 */
async function writeDirtyTrees(
  fs: Vfs,
  gitdir: string,
  nodes: TreeNodes,
  baseTree: string | null,
): Promise<string | null> {
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
  return rootNode.dirty ? await writeTreeObject(fs, gitdir, [...rootNode.entries.values()]) : baseTree;
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
 * @param options.mergeParent a second parent: the commit is the merge of `parent` and it (the tree is still built
 *   from `parent`'s and the working tree's changed paths).
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
    mergeParent?: string;
  },
): Promise<{ oid: string; skipped: SkippedPath[] } | null> {
  const root = normalizePosix(dir);
  const gitdir = `${root}/.git`;
  const { rels, skipped } = changedRels(root, options.changedPaths);
  if (rels.size === 0) return null;

  const gfs = createGitFs(fs);
  const cache = {};
  // 1. Metadata of all of .git, the small ref files, then the parent commit and its tree.
  const parent = await checkpointParent(fs, gfs, gitdir, options.ref, options.parent);
  const baseTree = await parentTree(fs, gfs, gitdir, parent, cache);
  // 2. Load the parent's trees along the changed paths, one batched data load per level.
  const nodes = await loadTreesAlong(fs, gfs, gitdir, baseTree, rels, cache);
  // 3. The working-tree state of each changed path, and the new files left out.
  const sorted = [...rels].sort();
  const states = await workingStates(fs, root, sorted);
  const ignored = await ignoredAdds(fs, gfs, root, sorted, states, nodes);
  // 4. Apply: set blobs, delete entries, create intermediate trees.
  await applyWorkingTree(fs, root, sorted, states, ignored, nodes);
  // 5. Write dirty trees bottom-up; an emptied tree disappears from its parent.
  const tree = await writeDirtyTrees(fs, gitdir, nodes, baseTree);
  if (tree === baseTree || (!parent && nodes.get("")!.entries.size === 0)) return null;

  const author = signature(options.author);
  const noted = withSkippedNote(options.message, skipped);
  const message = noted.endsWith("\n") ? noted : `${noted}\n`;
  const oid = await git.writeCommit({
    fs: gfs,
    gitdir,
    commit: {
      message,
      tree: tree!,
      parent: [...(parent ? [parent] : []), ...(options.mergeParent ? [options.mergeParent] : [])],
      author,
      committer: author,
    },
  });
  await git.writeRef({ fs: gfs, gitdir, ref: options.ref, value: oid, force: true });
  return { oid, skipped };
}
