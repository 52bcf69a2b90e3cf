/**
 * Reads the account, team and invitation pages render on the server: a workspace's name, whether a user is a member,
 * an email invitation with its team and inviter, whether an account has a password, and which Better Auth session a
 * request's cookie belongs to. Pages call these instead of writing SQL (docs/architecture.md: data access lives in
 * `lib/`); authorisation stays the caller's job (lib/access/authorize.ts).
 */
import { createAuth } from "@/lib/auth/server";
import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";

/** The name of workspace `workspaceId`, or null when there is none. */
export async function workspaceName(scope: DbScope, workspaceId: string): Promise<string | null> {
  const rows = await scope.query<{ name: string }>("SELECT name FROM workspaces WHERE id = $1", [
    workspaceId,
  ]);
  return rows[0]?.name ?? null;
}

/** Whether `userId` is a member (any role) of workspace `workspaceId`. */
export async function isWorkspaceMember(
  scope: DbScope,
  workspaceId: string,
  userId: string,
): Promise<boolean> {
  const rows = await scope.query("SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", [
    workspaceId,
    userId,
  ]);
  return rows.length > 0;
}

/** An email invitation as `/invitations/<id>` shows it. `expires_at` is a timestamp (Date or ISO string). */
export interface InvitationRow {
  id: string;
  email: string;
  role: string | null;
  status: string;
  expires_at: Date | string;
  workspace_id: string;
  team_name: string;
  inviter_name: string;
}

/** Invitation `id` with its team's and inviter's names, or null (also for an id that is not a UUID). */
export async function loadInvitation(scope: DbScope, id: string): Promise<InvitationRow | null> {
  if (!isUuid(id)) return null;
  const rows = await scope.query<InvitationRow>(
    `SELECT i.id, i.email, i.role, i.status, i.expires_at, i.workspace_id, w.name AS team_name,
       u.name AS inviter_name
     FROM workspace_invitations i JOIN workspaces w ON w.id = i.workspace_id JOIN users u ON u.id = i.inviter_id
     WHERE i.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Whether user `userId` can sign in with a password (a `credential` account with a hash; the local owner has none). */
export async function hasPassword(scope: DbScope, userId: string): Promise<boolean> {
  const rows = await scope.query<{ one: number }>(
    "SELECT 1 AS one FROM auth_accounts WHERE user_id = $1 AND provider_id = 'credential' AND password IS NOT NULL LIMIT 1",
    [userId],
  );
  return rows.length > 0;
}

/** The id of the Better Auth session `request`'s cookie belongs to, or null (marked "This device" in settings). */
export async function currentSessionId(scope: DbScope, request: Request): Promise<string | null> {
  const session = await scope.run((db) =>
    createAuth(db, new URL(request.url).origin).api.getSession({ headers: request.headers }),
  );
  return session?.session.id ?? null;
}
