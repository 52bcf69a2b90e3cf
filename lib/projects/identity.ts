/**
 * Who is acting. Strata runs single-user until accounts land: one local user with a personal workspace,
 * created on first use.
 */
import type { DbScope } from "@/lib/db/client";

export interface Actor {
  userId: string;
  workspaceId: string;
}

const LOCAL_USER = "local";

/** The local user and its personal workspace, created if missing (idempotent under concurrency). */
export async function getLocalActor(scope: DbScope): Promise<Actor> {
  const existing = await scope.query<{ user_id: string; workspace_id: string }>(
    `SELECT u.id AS user_id, w.id AS workspace_id FROM users u JOIN workspaces w ON w.owner_user_id = u.id
     WHERE u.name = $1 AND w.kind = 'personal' ORDER BY u.created_at LIMIT 1`,
    [LOCAL_USER],
  );
  if (existing[0]) return { userId: existing[0].user_id, workspaceId: existing[0].workspace_id };
  return scope.transaction(async (q) => {
    await q("SELECT pg_advisory_xact_lock(hashtext('strata:local-user'))");
    const again = await q<{ user_id: string; workspace_id: string }>(
      `SELECT u.id AS user_id, w.id AS workspace_id FROM users u JOIN workspaces w ON w.owner_user_id = u.id
       WHERE u.name = $1 AND w.kind = 'personal' ORDER BY u.created_at LIMIT 1`,
      [LOCAL_USER],
    );
    if (again[0]) return { userId: again[0].user_id, workspaceId: again[0].workspace_id };
    const [user] = await q<{ id: string }>("INSERT INTO users (name) VALUES ($1) RETURNING id", [LOCAL_USER]);
    const [ws] = await q<{ id: string }>(
      "INSERT INTO workspaces (name, kind, owner_user_id) VALUES ('Personal', 'personal', $1) RETURNING id",
      [user.id],
    );
    return { userId: user.id, workspaceId: ws.id };
  });
}
