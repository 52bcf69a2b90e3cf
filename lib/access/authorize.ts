/**
 * The one authorisation check: the caller's role in the workspace that owns a resource decides. A resource of a
 * workspace the caller is not in answers 404 with the same words as one that does not exist (existence does not
 * leak); one the caller can see but their role may not change answers 403. Every route goes through
 * `lib/http/access.ts`, which calls these before any other query.
 */

import type { Caller } from "@/lib/auth/caller";
import { forbidden, hiddenNotFound } from "@/lib/auth/errors";
import { asRole, type Permission, roleAllows, type WorkspaceAccess } from "@/lib/auth/roles";
import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { getProject, type Project } from "@/lib/projects/projects";
import { getSession, type SessionRow } from "@/lib/session/store";

const VERB: Record<Permission, string> = {
  read: "read this workspace",
  write: "change files, sessions or projects here",
  manage: "manage this workspace's members, rules or settings",
  delete: "delete this team",
};

export type { WorkspaceAccess };

/**
 * `userId`'s role in `workspaceId`, or null when not a member. The agent workspace (pi's `~`) belongs to its owner
 * alone, who is its owner.
 */
export async function workspaceAccess(
  scope: DbScope,
  userId: string,
  workspaceId: string,
): Promise<WorkspaceAccess | null> {
  const rows = await scope.query<{
    kind: WorkspaceAccess["kind"];
    owner_user_id: string | null;
    role: string | null;
  }>(
    `SELECT w.kind, w.owner_user_id, m.role FROM workspaces w
     LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $2 WHERE w.id = $1`,
    [workspaceId, userId],
  );
  const row = rows[0];
  if (!row) return null;
  const role = row.kind === "agent" ? (row.owner_user_id === userId ? "owner" : null) : asRole(row.role);
  return role ? { workspaceId, kind: row.kind, role } : null;
}

/**
 * Check `caller` may `permission` in `workspaceId`; `what` names the resource in the 404.
 * @throws AuthError 404 (not a member, or no such workspace), 403 (role too low).
 */
export async function authorizeWorkspace(
  scope: DbScope,
  caller: Caller,
  workspaceId: string,
  permission: Permission,
  what = `Workspace ${workspaceId}`,
): Promise<WorkspaceAccess> {
  const access = await workspaceAccess(scope, caller.userId, workspaceId);
  if (!access) throw hiddenNotFound(what);
  requirePermission(access, permission);
  return access;
}

/**
 * Check an access already granted carries `permission` too (a route whose body decides what it needs, after the
 * resource was found). @throws AuthError 403 (role too low), in the words of {@link authorizeWorkspace}.
 */
export function requirePermission(access: WorkspaceAccess, permission: Permission): void {
  if (!roleAllows(access.role, permission)) throw forbidden(access.role, VERB[permission]);
}

/** The project `projectId` if `caller` may `permission` it. @throws AuthError 404 / 403 as {@link authorizeWorkspace}. */
export async function authorizeProject(
  scope: DbScope,
  caller: Caller,
  projectId: string,
  permission: Permission,
): Promise<{ project: Project; access: WorkspaceAccess }> {
  const what = `Project ${projectId}`;
  const project = await getProject(scope, projectId);
  if (!project) throw hiddenNotFound(what);
  const access = await authorizeWorkspace(scope, caller, project.workspaceId, permission, what);
  return { project, access };
}

/**
 * The session `sessionId` and its project if `caller` may `permission` them (a session takes its project's
 * workspace's access). @throws AuthError 404 / 403 as {@link authorizeWorkspace}.
 */
export async function authorizeSession(
  scope: DbScope,
  caller: Caller,
  sessionId: string,
  permission: Permission,
): Promise<{ session: SessionRow; project: Project; access: WorkspaceAccess }> {
  const what = `Session ${sessionId}`;
  const session = isUuid(sessionId) ? await getSession(scope, sessionId) : null;
  if (!session) throw hiddenNotFound(what);
  const project = await getProject(scope, session.projectId);
  if (!project) throw hiddenNotFound(what);
  const access = await authorizeWorkspace(scope, caller, project.workspaceId, permission, what);
  return { session, project, access };
}
