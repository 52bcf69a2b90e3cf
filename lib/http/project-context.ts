/** Loading the project (and its VFS) a request names, with the same 404 everywhere. */
import { DbScope } from "@/lib/db/client";
import { getProject, type Project } from "@/lib/projects/projects";
import type { Vfs } from "@/lib/vfs/vfs";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { notFound } from "./errors";

/** Run `fn` with the project, its workspace VFS and a scope released afterwards. @throws ApiError 404. */
export async function withProject<T>(
  projectId: string,
  fn: (ctx: { scope: DbScope; project: Project; vfs: Vfs }) => Promise<T>,
): Promise<T> {
  const scope = new DbScope();
  try {
    const project = await getProject(scope, projectId);
    if (!project) throw notFound(`Project ${projectId}`);
    const { vfs } = openWorkspaceVfs(project.workspaceId, scope);
    return await fn({ scope, project, vfs });
  } finally {
    await scope.release();
  }
}
