/**
 * The local owner for the CLI's direct-database mode (`npx strata …` without `--server`): the same account the
 * embedded default signs a loopback browser in as (`owner@strata.localhost`, lib/auth/mode.ts), with its personal
 * workspace. Route handlers never use this: they act as the request's caller (lib/http/access.ts).
 */
import { LOCAL_OWNER_EMAIL, LOCAL_OWNER_NAME } from "@/lib/auth/mode";
import { createUserWorkspaces } from "@/lib/auth/workspaces";
import type { DbScope } from "@/lib/db/client";

export interface Actor {
  userId: string;
  workspaceId: string;
}

const FIND = `SELECT u.id AS user_id, w.id AS workspace_id FROM users u
  JOIN workspaces w ON w.slug = 'personal-' || u.id::text AND w.kind = 'personal'
  JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = u.id
  WHERE u.email = $1`;

/**
 * The local owner (found by email, created if missing, idempotent under concurrency) and their personal workspace
 * (slug `personal-<userId>`, with the owner member row; created if missing).
 */
export async function getLocalActor(scope: DbScope): Promise<Actor> {
  const existing = await scope.query<{ user_id: string; workspace_id: string }>(FIND, [LOCAL_OWNER_EMAIL]);
  if (existing[0]) return { userId: existing[0].user_id, workspaceId: existing[0].workspace_id };
  await scope.query(
    "INSERT INTO users (name, email, email_verified) VALUES ($1, $2, true) ON CONFLICT (email) DO NOTHING",
    [LOCAL_OWNER_NAME, LOCAL_OWNER_EMAIL],
  );
  const [user] = await scope.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [
    LOCAL_OWNER_EMAIL,
  ]);
  await scope.run((db) => createUserWorkspaces(db, user.id));
  const [row] = await scope.query<{ user_id: string; workspace_id: string }>(FIND, [LOCAL_OWNER_EMAIL]);
  return { userId: row.user_id, workspaceId: row.workspace_id };
}
