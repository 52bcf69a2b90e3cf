/**
 * The routes' side of the one authorisation layer (lib/auth): every handler that touches a resource calls one of
 * these first. Each opens the request's database scope, resolves the caller (401 without one), checks the caller's
 * role in the resource's workspace (404 outside it, 403 for a role too low) and only then runs `fn`; the scope is
 * released afterwards.
 */

import {
  authorizeProject,
  authorizeSession,
  authorizeWorkspace,
  type WorkspaceAccess,
} from "@/lib/access/authorize";
import { type Caller, requireCaller } from "@/lib/auth/caller";
import { hiddenNotFound } from "@/lib/auth/errors";
import type { Permission } from "@/lib/auth/roles";
import { ensureWorktrees } from "@/lib/checkpoints/worktree-migrate";
import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import type { Project } from "@/lib/projects/projects";
import type { SessionRow } from "@/lib/session/store";
import type { Vfs } from "@/lib/vfs/vfs";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import { personalWorkspaceId } from "./workspaces";

/** Run `fn` for the signed-in caller. @throws AuthError 401. */
export async function withCaller<T>(
  request: Request,
  fn: (ctx: { scope: DbScope; caller: Caller }) => Promise<T>,
): Promise<T> {
  const scope = new DbScope();
  try {
    const caller = await requireCaller(scope, request);
    return await fn({ scope, caller });
  } finally {
    await scope.release();
  }
}

/** Run `fn` if the caller may `permission` workspace `workspaceId`. @throws AuthError 401 / 404 / 403. */
export async function withWorkspace<T>(
  request: Request,
  workspaceId: string,
  permission: Permission,
  fn: (ctx: { scope: DbScope; caller: Caller; access: WorkspaceAccess }) => Promise<T>,
): Promise<T> {
  return withCaller(request, async ({ scope, caller }) => {
    const id = isUuid(workspaceId) ? workspaceId : "00000000-0000-0000-0000-000000000000";
    const access = await authorizeWorkspace(scope, caller, id, permission, `Workspace ${workspaceId}`);
    return fn({ scope, caller, access });
  });
}

/**
 * {@link withWorkspace} for a request that may name no workspace: `workspaceId` undefined (or empty) means the
 * caller's personal workspace. @throws AuthError 401 / 404 / 403.
 */
export async function withWorkspaceOrPersonal<T>(
  request: Request,
  workspaceId: string | undefined,
  permission: Permission,
  fn: (ctx: { scope: DbScope; caller: Caller; access: WorkspaceAccess }) => Promise<T>,
): Promise<T> {
  if (workspaceId) return withWorkspace(request, workspaceId, permission, fn);
  return withCaller(request, async ({ scope, caller }) => {
    const access = await authorizeWorkspace(
      scope,
      caller,
      await personalWorkspaceId(scope, caller.userId),
      permission,
    );
    return fn({ scope, caller, access });
  });
}

/**
 * Run `fn` with the project, its files and the caller's access. The files are the working tree of the session the
 * request names in `?session=` (a session of this project the caller may `permission`; another project's or an
 * unknown one answers 404), else the project's main line (writes there pin every session first,
 * lib/vfs/worktree-main.ts). @throws AuthError 401 / 404 / 403.
 */
export async function withProject<T>(
  request: Request,
  projectId: string,
  permission: Permission,
  fn: (ctx: {
    scope: DbScope;
    caller: Caller;
    project: Project;
    access: WorkspaceAccess;
    vfs: Vfs;
  }) => Promise<T>,
): Promise<T> {
  return withCaller(request, async ({ scope, caller }) => {
    const { project, access } = await authorizeProject(scope, caller, projectId, permission);
    await ensureWorktrees(scope, project);
    const sessionId = new URL(request.url).searchParams.get("session");
    if (sessionId) {
      const found = await authorizeSession(scope, caller, sessionId, permission);
      if (found.session.projectId !== project.id) throw hiddenNotFound(`Session ${sessionId}`);
      const { vfs } = openSessionVfs(project, sessionId, scope);
      return fn({ scope, caller, project, access, vfs });
    }
    const { vfs } = openMainVfs(
      project.workspaceId,
      { projectId: project.id, root: project.rootPath },
      scope,
    );
    return fn({ scope, caller, project, access, vfs });
  });
}

/** Run `fn` with the session, its project and the caller's access. @throws AuthError 401 / 404 / 403. */
export async function withSession<T>(
  request: Request,
  sessionId: string,
  permission: Permission,
  fn: (ctx: {
    scope: DbScope;
    caller: Caller;
    session: SessionRow;
    project: Project;
    access: WorkspaceAccess;
  }) => Promise<T>,
): Promise<T> {
  return withCaller(request, async ({ scope, caller }) => {
    const found = await authorizeSession(scope, caller, sessionId, permission);
    await ensureWorktrees(scope, found.project);
    return fn({ scope, caller, ...found });
  });
}
