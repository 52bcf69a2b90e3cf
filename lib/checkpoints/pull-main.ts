/**
 * Bringing main into a session (docs/checkpoints.md, "Bringing main into a session"): git's `git merge main` on a
 * session's branch. The session's working tree is committed first (its edits since the last checkpoint, as the
 * user's checkpoint), then main's `HEAD` is merged three-way into that tip (lib/checkpoints/merge-plan.ts), with the
 * same conflicts and resolutions as a merge into main. The result is written to the session's working tree only and
 * committed on the session's branch as a merge commit (parents: the session's tip, main), recorded as a `pull`
 * checkpoint and bound to the session's leaf by a `strata.checkpoint` entry, as a revert is. Main and every other
 * session are untouched. A preview does all of it but writes nothing.
 */
import { recordCheckpoint } from "@/lib/session/checkpoint-rows";
import { appendEntry } from "@/lib/session/store";
import { checkpoint, log, resolveRef } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import { checkoutSnapshot } from "@/lib/vfs/worktree";
import { CheckpointError } from "./errors";
import { MergeConflictError, type MergeInput } from "./merge";
import { type MergeFile, mergedTree, planMerge } from "./merge-plan";
import { sessionTip } from "./merge-tip";
import { CHECKPOINT_CUSTOM_TYPE } from "./restore";
import type { MergeConflict } from "./three-way";

/** One commit of main the pull brings (newest first). */
export interface MainCommit {
  oid: string;
  /** The first line of its message. */
  title: string;
  author: string;
}

/** What {@link pullMainIntoSession} found (a preview) or did. */
export interface PullMainResult {
  /** Main's commit brought in (`HEAD` when read). */
  main: string | null;
  /** The session's tip: its working tree committed. */
  tip: string | null;
  base: string | null;
  /** The session's files the pull changes: the session's text before, the merged text after. */
  files: MergeFile[];
  conflicts: MergeConflict[];
  /** Main's commits the session lacks, newest first (at most {@link MAX_MAIN_COMMITS}). */
  mainCommits: MainCommit[];
  /** The merge commit on the session's branch; null for a preview, or when the session already has main. */
  commit: string | null;
}

/** The most of main's commits a review lists. */
export const MAX_MAIN_COMMITS = 50;

/**
 * Merge main's `HEAD` into session `input.session`'s working tree, or preview it (see the module docstring).
 * `input.expectMain`: main's commit the caller reviewed. `input.resolutions`: conflicting path → the text chosen.
 * @returns the result; `commit` is the merge commit (null: a preview, or main brings nothing).
 * @throws MergeConflictError (409) when a conflict has no resolution; CheckpointError 409 `main_moved` when `HEAD`
 *   is not `expectMain`, `no_repository` for a project without commits; VfsError `EEXIST` (an untracked file where
 *   the pull adds one) or `EINVAL` (a symlinked folder on the way): nothing written.
 */
export async function pullMainIntoSession(input: MergeInput): Promise<PullMainResult> {
  const { scope, project, session } = input;
  const root = project.rootPath;
  const own = openSessionVfs(project, session.id, scope).vfs;
  const tip = await sessionTip(own, input, !input.preview);
  const main = openMainVfs(project.workspaceId, { projectId: project.id, root }, scope).vfs;
  const head = await resolveRef(main, root, "HEAD");
  if (!head || !tip)
    throw new CheckpointError(409, "no_repository", "This project has no commits to bring in.");
  if (input.expectMain && input.expectMain !== head)
    throw new CheckpointError(
      409,
      "main_moved",
      "Main changed since this review (a merge or a pull). Nothing was changed; review again.",
    );
  const plan = await planMerge(
    own,
    root,
    { ours: tip, theirs: head },
    {
      labels: { ours: `session ${session.title ?? session.id}`, theirs: "main" },
      resolutions: input.resolutions,
    },
  );
  const result: PullMainResult = {
    main: head,
    tip,
    base: plan.base,
    files: plan.files,
    conflicts: plan.conflicts,
    mainCommits: plan.base === head ? [] : await commitsSince(own, root, head, plan.base),
    commit: null,
  };
  if (input.preview) return result;
  if (plan.conflicts.length > 0) throw new MergeConflictError(plan.conflicts);
  if (plan.base === head) return result;
  const wanted = await mergedTree(own, root, plan);
  await checkoutSnapshot(own, root, plan.trees.ours, wanted);
  const title = (session.title ?? "Untitled session").replace(/[\r\n]+/g, " ");
  const made = await checkpoint(own, root, {
    changedPaths: [...plan.writes.keys()].map((p) => `${root}/${p}`),
    ref: sessionRef(session.id),
    parent: tip,
    mergeParent: head,
    message: `Merge main into session "${title}"\n\nStrata session ${session.id}: main at ${head} brought in by ${input.author.name}.`,
    author: input.author,
  });
  await own.flush();
  if (!made) return result;
  const paths = [...plan.writes.keys()].sort();
  await recordCheckpoint(scope, session.id, {
    commitOid: made.oid,
    parentOid: tip,
    kind: "pull",
    paths,
    authorUserId: input.userId,
  });
  await appendEntry(
    scope,
    session.id,
    {
      type: "custom",
      customType: CHECKPOINT_CUSTOM_TYPE,
      data: { kind: "pull", commit: made.oid, main: head, paths },
    },
    { commit: made.oid },
  );
  result.commit = made.oid;
  return result;
}

/** Main's commits from `head` back to (not including) `base`, newest first, at most {@link MAX_MAIN_COMMITS}. */
async function commitsSince(
  vfs: Parameters<typeof log>[0],
  root: string,
  head: string,
  base: string | null,
): Promise<MainCommit[]> {
  const out: MainCommit[] = [];
  for (const c of await log(vfs, root, head, MAX_MAIN_COMMITS * 4)) {
    if (c.oid === base || out.length === MAX_MAIN_COMMITS) break;
    out.push({ oid: c.oid, title: c.message.split("\n")[0] ?? "", author: c.author.name });
  }
  return out;
}
