/**
 * The caller's workspaces as the API lists them (`GET /api/workspaces`) and the default workspace of a request that
 * names none (the caller's personal workspace).
 */
import { createUserWorkspaces } from "@/lib/auth/workspaces";
import type { DbScope } from "@/lib/db/client";

export interface WorkspaceView {
  id: string;
  name: string;
  slug: string;
  kind: "personal" | "team";
  /** The caller's role there: owner, admin, member or viewer. */
  role: string;
}

/** `userId`'s personal workspace id (created if a hand-made account lacks it). */
export async function personalWorkspaceId(scope: DbScope, userId: string): Promise<string> {
  const sql =
    "SELECT id FROM workspaces WHERE owner_user_id = $1 AND kind = 'personal' ORDER BY created_at LIMIT 1";
  const rows = await scope.query<{ id: string }>(sql, [userId]);
  if (rows[0]) return rows[0].id;
  await scope.run((db) => createUserWorkspaces(db, userId));
  const again = await scope.query<{ id: string }>(sql, [userId]);
  return again[0].id;
}

/** The workspaces `userId` is a member of (personal first, then teams by name); the agent workspace is not listed. */
export async function listUserWorkspaces(scope: DbScope, userId: string): Promise<WorkspaceView[]> {
  return scope.query<WorkspaceView>(
    `SELECT w.id, w.name, w.slug, w.kind, m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.user_id = $1 AND w.kind IN ('personal', 'team')
     ORDER BY (w.kind = 'personal') DESC, lower(w.name), w.created_at`,
    [userId],
  );
}
