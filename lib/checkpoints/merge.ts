/**
 * Merging a session's work into the project's main line (docs/checkpoints.md, "Merging into main"). The session's
 * working tree is committed first (its edits since the last checkpoint, as the user's checkpoint), then its tip is
 * merged three-way (lib/checkpoints/three-way.ts) with main's `HEAD` over their merge base (isomorphic-git
 * `findMergeBase`). The result is written to main's working tree (every other session pinned first,
 * lib/vfs/worktree-main.ts) and committed on `HEAD`'s branch as a merge commit whose parents are main and the
 * session's tip and whose message names the session. Conflicts are answered, never written: 409 `merge_conflict`
 * with each file's sides and marked text; the caller sends the texts it chose as `resolutions`. A preview does all of
 * it but writes nothing.
 */
import * as git from "isomorphic-git";
import type { WorkspaceAccess } from "@/lib/auth/roles";
import type { DbScope } from "@/lib/db/client";
import { type CheckpointRow, listCheckpoints } from "@/lib/session/checkpoint-rows";
import { checkpoint, resolveRef } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import type { Vfs } from "@/lib/vfs/vfs";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import { checkoutSnapshot } from "@/lib/vfs/worktree";
import { CheckpointError } from "./errors";
import { type MergeFile, type MergePlan, mergedTree, planMerge } from "./merge-plan";
import { sessionTip } from "./merge-tip";
import { pinSessionBranches } from "./session-branches";
import type { MergeConflict } from "./three-way";

export type { MergeFile };

/** What {@link mergeIntoMain} found (a preview) or did. */
export interface MergeResult {
  /** Main's commit merged into (`HEAD` when read). */
  main: string | null;
  /** The session's tip: its working tree committed. */
  tip: string | null;
  base: string | null;
  files: MergeFile[];
  conflicts: MergeConflict[];
  /** The session's checkpoints (the commits the merge brings), oldest first, with their author's name. */
  checkpoints: (CheckpointRow & { authorName: string | null })[];
  /** The merge commit; null for a preview, or when main already holds everything. */
  commit: string | null;
}

/** Input of {@link mergeIntoMain}. */
export interface MergeInput {
  scope: DbScope;
  session: { id: string; title: string | null; leafId: string | null };
  project: { id: string; workspaceId: string; rootPath: string };
  author: { name: string; email: string };
  userId: string | null;
  /** Conflicting path → the text chosen (null: delete it). */
  resolutions?: Record<string, string | null>;
  /** Compute, write nothing. */
  preview?: boolean;
  /** Main's commit the caller reviewed: when `HEAD` is another, 409 `main_moved` and nothing is written. */
  expectMain?: string;
  /** The session's work to merge (a merge request's); omitted, the session's working tree committed now. */
  tip?: string;
  /** The caller's role in the project's workspace (a member's merge may wait for approval: merge-requests.ts). */
  access?: WorkspaceAccess;
}

/** A merge with conflicts no resolution covers: 409 `merge_conflict`, the conflicts in the body; nothing written. */
export class MergeConflictError extends CheckpointError {
  constructor(readonly conflicts: MergeConflict[]) {
    super(
      409,
      "merge_conflict",
      `${conflicts.length === 1 ? `${conflicts[0].path} was` : `${conflicts.length} files were`} changed on main and in this session in the same places. Nothing was merged; choose each file's text and merge again.`,
    );
    this.name = "MergeConflictError";
    Object.assign(this, { details: { conflicts } });
  }
}

/**
 * Merge session `input.session`'s work into its project's main line, or preview it (see the module docstring).
 * @returns the result; `commit` is the merge commit (null: a preview, or nothing to merge).
 * @throws MergeConflictError (409) when a conflict has no resolution; CheckpointError 409 `main_moved` when `HEAD`
 *   is not `expectMain`, `no_repository` for a project without commits; VfsConflictError when main moved during the
 *   merge; VfsError `EEXIST` (an untracked file of main where the merge adds one) or `EINVAL` (a symlinked folder on
 *   the way): nothing written.
 */
export async function mergeIntoMain(input: MergeInput): Promise<MergeResult> {
  const { scope, project } = input;
  const root = project.rootPath;
  const own = openSessionVfs(project, input.session.id, scope).vfs;
  const tip = input.tip ?? (await sessionTip(own, input, !input.preview));
  const main = openMainVfs(project.workspaceId, { projectId: project.id, root }, scope).vfs;
  const head = await resolveRef(main, root, "HEAD");
  if (!head || !tip) throw new CheckpointError(409, "no_repository", "This project has no commits to merge.");
  if (input.expectMain && input.expectMain !== head)
    throw new CheckpointError(
      409,
      "main_moved",
      "Main changed since this review (another merge or a pull). Nothing was merged; review the merge again.",
    );
  const plan = await planMerge(
    own,
    root,
    { ours: head, theirs: tip },
    {
      labels: { ours: "main", theirs: `session ${input.session.title ?? input.session.id}` },
      resolutions: input.resolutions,
    },
  );
  const result: MergeResult = {
    main: head,
    tip,
    base: plan.base,
    files: plan.files,
    conflicts: plan.conflicts,
    checkpoints: await checkpointsWithAuthors(scope, input.session.id),
    commit: null,
  };
  if (input.preview) return result;
  if (plan.conflicts.length > 0) throw new MergeConflictError(plan.conflicts);
  result.commit = await commitMerge(main, root, { head, tip, plan, input });
  return result;
}

/**
 * The merged files checked out over main's working tree (lib/vfs/worktree.ts `checkoutSnapshot`: deletions first,
 * never through a symlinked folder, never over an untracked file) and committed on `HEAD`'s branch with both parents.
 */
async function commitMerge(
  main: Vfs,
  root: string,
  m: { head: string; tip: string; plan: MergePlan; input: MergeInput },
): Promise<string | null> {
  if (m.plan.writes.size === 0) return null;
  const gfs = createGitFs(main);
  const gitdir = `${root}/.git`;
  const wanted = await mergedTree(main, root, m.plan);
  await checkoutSnapshot(main, root, m.plan.trees.ours, wanted);
  await pinSessionBranches(m.input.scope, main, m.input.project, m.head);
  const branch = await git.currentBranch({ fs: gfs, gitdir, fullname: true });
  const title = (m.input.session.title ?? "Untitled session").replace(/[\r\n]+/g, " ");
  const made = await checkpoint(main, root, {
    changedPaths: [...m.plan.writes.keys()].map((p) => `${root}/${p}`),
    ref: branch ?? "HEAD",
    parent: m.head,
    mergeParent: m.tip,
    message: `Merge session "${title}" into main\n\nStrata session ${m.input.session.id} (/projects/${m.input.project.id}?session=${m.input.session.id}), merged by ${m.input.author.name}.`,
    author: m.input.author,
  });
  await main.flush();
  return made?.oid ?? null;
}

/** The session's checkpoints with their author's display name. */
async function checkpointsWithAuthors(
  scope: DbScope,
  sessionId: string,
): Promise<MergeResult["checkpoints"]> {
  const rows = await listCheckpoints(scope, sessionId);
  const ids = [...new Set(rows.map((r) => r.authorUserId).filter((id): id is string => id !== null))];
  const names = new Map(
    ids.length === 0
      ? []
      : (
          await scope.query<{ id: string; name: string }>(
            "SELECT id, name FROM users WHERE id = ANY($1::uuid[])",
            [ids],
          )
        ).map((u) => [u.id, u.name]),
  );
  return rows.map((r) => ({ ...r, authorName: r.authorUserId ? (names.get(r.authorUserId) ?? null) : null }));
}
