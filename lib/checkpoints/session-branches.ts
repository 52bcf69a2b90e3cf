/**
 * A session that has no checkpoint yet stands on main's `HEAD` (lib/agent-session/file-state.ts `pointCommit` falls
 * back to it). Whatever moves `HEAD` (a merge into main, a pull) first gives each such session of the project its
 * branch (`refs/heads/strata/session-<id>`) at the current `HEAD`, so its base stays where it started, as its files
 * are pinned (lib/vfs/worktree-main.ts).
 */
import * as git from "isomorphic-git";
import type { DbScope } from "@/lib/db/client";
import { resolveRef } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { sessionRef } from "@/lib/vfs/session-ref";
import type { Vfs } from "@/lib/vfs/vfs";

/**
 * Create the branch of every session of project `projectId` that has none, at `head` (default: `HEAD`'s commit now),
 * on `vfs` (unflushed: the caller's flush writes them with its own change). Nothing without a repository or a commit.
 */
export async function pinSessionBranches(
  scope: DbScope,
  vfs: Vfs,
  project: { id: string; rootPath: string },
  head?: string,
): Promise<void> {
  const root = project.rootPath;
  const at = head ?? (await resolveRef(vfs, root, "HEAD").catch(() => null));
  if (!at) return;
  const gfs = createGitFs(vfs);
  const sessions = await scope.query<{ id: string }>("SELECT id FROM sessions WHERE project_id = $1", [
    project.id,
  ]);
  for (const s of sessions)
    if (!(await resolveRef(vfs, root, sessionRef(s.id))))
      await git.writeRef({ fs: gfs, gitdir: `${root}/.git`, ref: sessionRef(s.id), value: at });
}
