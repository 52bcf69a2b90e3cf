/**
 * Moving a project that predates per-session working trees onto them (docs/checkpoints.md, "Sessions and the main
 * line"), once, on its first open: the shared working tree's state is committed on the project's `HEAD` (it becomes
 * the main line, nothing lost), then each session's working tree becomes its leaf's commit (only the paths that differ
 * from main are written, as the session's own rows). A project made since has `worktrees_at` set at creation.
 */
import { pointCommit } from "@/lib/agent-session/file-state";
import type { DbScope } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import { commitAll, resolveRef } from "@/lib/vfs/git";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import { checkoutSnapshot, commitSnapshot, diffSnapshots, workingTreeSnapshot } from "@/lib/vfs/worktree";

/** Commit message of the shared working tree's state, committed as the main line when a project moves. */
export const MAIN_LINE_MESSAGE = "Strata: the shared working tree, kept as the main line";
const STRATA = { name: "Strata", email: "agent@strata.local" };

type MigratedProject = { id: string; workspaceId: string; rootPath: string; worktreesAt?: string | null };

/** A claim older than this (ms) is taken to be from a request that died mid-way: the next open takes it over. */
export const MIGRATION_STALE_MS = 120_000;
/** How long another request waits for a migration in progress before answering 503 (ms). */
const WAIT_MS = 20_000;
const POLL_MS = 200;
/**
 * `worktrees_at` while a request migrates: the claim's time moved back a century (before any real timestamp), so the
 * column says both "in progress" and since when.
 */
const CLAIM_OFFSET = "interval '100 years'";

/**
 * Give `project` per-session working trees if it has none yet (see the module docstring); a no-op once done. One
 * request claims the project; the others wait for it (up to 20 s, then 503 saying so) rather than read trees not yet
 * moved; a claim older than {@link MIGRATION_STALE_MS} (its request died) is taken over, and each step is idempotent,
 * so a migration cut off half-way finishes on the next open. A failure releases the claim and rethrows. A session
 * whose files cannot be checked out (a path of its commit where an untracked file of main stands) keeps main's files
 * and is logged: its history still holds its commits.
 * @throws StrataError 503 `migration_in_progress` after waiting; the VFS's and git's errors of the migration.
 */
export async function ensureWorktrees(scope: DbScope, project: MigratedProject): Promise<void> {
  if (project.worktreesAt && !inProgress(project.worktreesAt)) return;
  const started = Date.now();
  for (;;) {
    const claimed = await scope.query(
      `UPDATE projects SET worktrees_at = now() - ${CLAIM_OFFSET} WHERE id = $1 AND (worktrees_at IS NULL
         OR worktrees_at < now() - ${CLAIM_OFFSET} - ($2::int * interval '1 millisecond')) RETURNING id`,
      [project.id, MIGRATION_STALE_MS],
    );
    if (claimed.length > 0) break;
    const [row] = await scope.query<{ at: Date | string | null }>(
      "SELECT worktrees_at AS at FROM projects WHERE id = $1",
      [project.id],
    );
    if (!row?.at || !inProgress(new Date(row.at).toISOString())) return;
    if (Date.now() - started > WAIT_MS)
      throw new StrataError(
        503,
        "migration_in_progress",
        "This project is being moved to a working tree per session (once, after an upgrade). Try again in a minute.",
        { headers: { "retry-after": "30" } },
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  try {
    await migrate(scope, project);
    await scope.query("UPDATE projects SET worktrees_at = now() WHERE id = $1", [project.id]);
  } catch (error) {
    await scope.query("UPDATE projects SET worktrees_at = NULL WHERE id = $1", [project.id]);
    throw error;
  }
}

/** Whether a `worktrees_at` value is a claim (a migration in progress), not the time it was done. */
function inProgress(iso: string): boolean {
  return new Date(iso).getUTCFullYear() < 1990;
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
    // Rows of its own: moved by a migration cut off half-way (each session's checkout is one flush).
    const own = await scope.query("SELECT 1 FROM worktree_nodes WHERE session_id = $1 LIMIT 1", [s.id]);
    if (own.length > 0) continue;
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
