/**
 * Moving a project that predates per-session working trees onto them (docs/checkpoints.md, "Sessions and the main
 * line"), once, on its first open: the shared working tree's state is committed on the project's `HEAD` (it becomes
 * the main line, nothing lost), then each session's working tree becomes its leaf's commit (only the paths that differ
 * from main are written, as the session's own rows). A project made since has `worktrees_at` set at creation.
 */
import { pointCommit } from "@/lib/agent-session/file-state";
import type { DbScope } from "@/lib/db/client";
import { commitAll, resolveRef } from "@/lib/vfs/git";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import { checkoutSnapshot, commitSnapshot, diffSnapshots, workingTreeSnapshot } from "@/lib/vfs/worktree";

/** Commit message of the shared working tree's state, committed as the main line when a project moves. */
export const MAIN_LINE_MESSAGE = "Strata: the shared working tree, kept as the main line";
const STRATA = { name: "Strata", email: "agent@strata.local" };

type MigratedProject = { id: string; workspaceId: string; rootPath: string; worktreesAt?: string | null };

/**
 * Give `project` per-session working trees if it has none yet (see the module docstring); a no-op once done. The
 * project is claimed first (`worktrees_at` set), so two requests never migrate it twice; a failure un-claims it and
 * rethrows, so the next open tries again. A session whose files cannot be checked out (a path in its commit where an
 * untracked file of main stands) keeps main's files and is logged: its history still holds its commits.
 * @throws the VFS's and git's errors of the main line's commit.
 */
export async function ensureWorktrees(scope: DbScope, project: MigratedProject): Promise<void> {
  if (project.worktreesAt) return;
  const claimed = await scope.query(
    "UPDATE projects SET worktrees_at = now() WHERE id = $1 AND worktrees_at IS NULL RETURNING id",
    [project.id],
  );
  if (claimed.length === 0) return;
  try {
    await migrate(scope, project);
  } catch (error) {
    await scope.query("UPDATE projects SET worktrees_at = NULL WHERE id = $1", [project.id]);
    throw error;
  }
}

async function migrate(scope: DbScope, project: MigratedProject): Promise<void> {
  const root = project.rootPath;
  const main = openMainVfs(project.workspaceId, { projectId: project.id, root }, scope).vfs;
  if (!(await main.exists(`${root}/.git`))) return;
  let mainCommit = await resolveRef(main, root, "HEAD");
  const headTree = await commitSnapshot(main, root, mainCommit);
  if (diffSnapshots(headTree, await workingTreeSnapshot(main, root)).length > 0) {
    mainCommit = await commitAll(main, root, { message: MAIN_LINE_MESSAGE, author: STRATA });
    await main.flush();
  }
  const mainTree = await commitSnapshot(main, root, mainCommit);
  const sessions = await scope.query<{ id: string; leaf_id: string | null }>(
    "SELECT id, leaf_id FROM sessions WHERE project_id = $1 ORDER BY created_at",
    [project.id],
  );
  for (const s of sessions) {
    const vfs = openSessionVfs(project, s.id, scope).vfs;
    const leafCommit = await pointCommit(scope, { vfs, root, session: { id: s.id } }, s.leaf_id);
    if (!leafCommit || leafCommit === mainCommit) continue;
    try {
      await checkoutSnapshot(
        vfs,
        root,
        mainTree,
        await commitSnapshot(vfs, root, leafCommit, { lenient: true }),
      );
      await vfs.flush();
    } catch (error) {
      console.warn(`[strata] session ${s.id}: its files stay the main line's (${(error as Error).message})`);
    }
  }
}
