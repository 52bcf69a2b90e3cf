/** A project on the test database (git repository, committed files) and a session on it, for the exec tests. */
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { openWorkspaceVfs, openWorktreeVfs } from "@/lib/vfs/workspace";

/**
 * A project with `files` committed, in the local owner's workspace or in `owner`'s (a test user's personal
 * workspace; its session is theirs), and a session on it.
 */
export async function projectWithFiles(
  scope: DbScope,
  files: Record<string, string>,
  owner?: { id: string; workspaceId: string },
) {
  const actor = await getLocalActor(scope);
  const workspaceId = owner?.workspaceId ?? actor.workspaceId;
  const project = await insertProject(scope, { workspaceId, name: "exec", source: null });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(workspaceId, s);
  await initRepository(vfs, project.rootPath);
  for (const [p, c] of Object.entries(files)) await vfs.writeFile(`${project.rootPath}/${p}`, c);
  await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  await s.release();
  const session = await createSession(scope, {
    projectId: project.id,
    cwd: project.rootPath,
    ...(owner ? { userId: owner.id } : {}),
  });
  return { actor, project, session, root: project.rootPath, workspaceId };
}

/** Read a file of the workspace as Postgres holds it now (a fresh VFS). */
export async function readStored(
  workspaceId: string,
  path: string,
  worktree?: { sessionId: string; root: string },
): Promise<string | null> {
  const s = new DbScope();
  try {
    const { vfs } = worktree ? openWorktreeVfs(workspaceId, worktree, s) : openWorkspaceVfs(workspaceId, s);
    return (await vfs.exists(path)) ? await vfs.readText(path) : null;
  } finally {
    await s.release();
  }
}
