/**
 * The plan both directions of a merge share (docs/checkpoints.md, "Merging into main" and "Bringing main into a
 * session"): the merge base of two commits (isomorphic-git `findMergeBase`), the three-way merge of their trees
 * (lib/checkpoints/three-way.ts), the files it changes with both texts for the review, and the merged tree whose
 * new blobs are written to the repository. Writing the result to a working tree and committing it is the caller's.
 */
import * as git from "isomorphic-git";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { Vfs } from "@/lib/vfs/vfs";
import { commitSnapshot, readBlob, type TreeSnapshot } from "@/lib/vfs/worktree";
import { type MergeConflict, type MergeWrite, threeWay } from "./three-way";

/** One file a merge changes on the side merged into, with both texts (null: absent, binary, or over 1 MiB). */
export interface MergeFile {
  path: string;
  status: "added" | "modified" | "deleted";
  before: string | null;
  after: string | null;
}

/** What {@link planMerge} found: the base, the three trees, the writes over `ours`, the conflicts left. */
export interface MergePlan {
  base: string | null;
  trees: { base: TreeSnapshot; ours: TreeSnapshot; theirs: TreeSnapshot };
  writes: Map<string, MergeWrite>;
  conflicts: MergeConflict[];
  /** The files the writes change, for the review. */
  files: MergeFile[];
}

const MAX_REVIEW_BYTES = 1024 * 1024;
const decoder = new TextDecoder("utf-8", { fatal: false });

/** Bytes as review text: null when binary or over the review limit. */
function reviewText(bytes: Uint8Array | null): string | null {
  if (!bytes || bytes.byteLength > MAX_REVIEW_BYTES || bytes.subarray(0, 8000).includes(0)) return null;
  return decoder.decode(bytes);
}

/**
 * Merge commit `theirs` into commit `ours` of the repository at `root` (read through `vfs`), over their merge base.
 * @param labels the names in conflict markers, e.g. `{ ours: "main", theirs: "session Fix login" }`.
 * @param resolutions conflicting path → the text chosen (null: delete it).
 */
export async function planMerge(
  vfs: Vfs,
  root: string,
  commits: { ours: string; theirs: string },
  options: { labels: { ours: string; theirs: string }; resolutions?: Record<string, string | null> },
): Promise<MergePlan> {
  const gfs = createGitFs(vfs);
  const [found] = await git.findMergeBase({
    fs: gfs,
    gitdir: `${root}/.git`,
    oids: [commits.ours, commits.theirs],
  });
  const base = (found as string | undefined) ?? null;
  const trees = {
    base: await commitSnapshot(vfs, root, base),
    ours: await commitSnapshot(vfs, root, commits.ours),
    theirs: await commitSnapshot(vfs, root, commits.theirs),
  };
  const blob = (oid: string) => readBlob(vfs, root, oid);
  const { writes, conflicts } = await threeWay(trees, blob, {
    labels: options.labels,
    resolutions: new Map(Object.entries(options.resolutions ?? {})),
  });
  const files: MergeFile[] = [];
  for (const [path, w] of writes) {
    const was = trees.ours.get(path);
    const before = was ? reviewText(await blob(was.oid)) : null;
    const after = w === null ? null : "text" in w ? w.text : reviewText(await blob(w.blob.oid));
    files.push({ path, status: !was ? "added" : w === null ? "deleted" : "modified", before, after });
  }
  return { base, trees, writes, conflicts, files };
}

/** The tree `plan` merges to: `ours` with its writes (merged texts written as blobs of the repository at `root`). */
export async function mergedTree(vfs: Vfs, root: string, plan: MergePlan): Promise<TreeSnapshot> {
  const gfs = createGitFs(vfs);
  const wanted = new Map(plan.trees.ours);
  for (const [path, w] of plan.writes) {
    if (w === null) wanted.delete(path);
    else if ("blob" in w) wanted.set(path, w.blob);
    else {
      const blob = new TextEncoder().encode(w.text);
      wanted.set(path, { oid: await git.writeBlob({ fs: gfs, gitdir: `${root}/.git`, blob }), mode: w.mode });
    }
  }
  return wanted;
}
