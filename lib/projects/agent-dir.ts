/**
 * The user's agent dir (pi `~/.pi/agent`): a per-user VFS tree in a workspace of its own (kind `agent`,
 * one per user, created on first use). Its root plays pi's `~`, so the agent dir is `/.pi/agent` and the
 * user's `.agents/skills` is `/.agents/skills` — on a filesystem no project walks, so neither ever counts
 * as a project resource (see docs/architecture.md, "The user's agent dir").
 */
import type { DbScope } from "@/lib/db/client";
import type { Vfs } from "@/lib/vfs/vfs";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { listProjectTree, type TreeEntry } from "./files";

/** The agent dir on the agent workspace (pi `getAgentDir()` with `~` = the workspace root). */
export const AGENT_DIR = "/.pi/agent";
/** pi's `~` on the agent workspace. */
export const AGENT_HOME = "/";

/** The id of `userId`'s agent workspace, created if missing (idempotent under concurrency). */
export async function getAgentWorkspaceId(scope: DbScope, userId: string): Promise<string> {
  const sql =
    "SELECT id FROM workspaces WHERE owner_user_id = $1 AND kind = 'agent' ORDER BY created_at LIMIT 1";
  const existing = await scope.query<{ id: string }>(sql, [userId]);
  if (existing[0]) return existing[0].id;
  return scope.transaction(async (q) => {
    await q("SELECT pg_advisory_xact_lock(hashtext($1))", [`strata:agent-workspace:${userId}`]);
    const again = await q<{ id: string }>(sql, [userId]);
    if (again[0]) return again[0].id;
    const [ws] = await q<{ id: string }>(
      "INSERT INTO workspaces (name, kind, owner_user_id, slug) VALUES ('Agent', 'agent', $1::uuid, 'agent-' || $1::uuid::text) RETURNING id",
      [userId],
    );
    return ws.id;
  });
}

/** `userId`'s agent workspace VFS on `scope` (the agent dir is not created; a missing dir loads nothing). */
export async function openAgentVfs(
  scope: DbScope,
  userId: string,
): Promise<{ vfs: Vfs; workspaceId: string }> {
  const workspaceId = await getAgentWorkspaceId(scope, userId);
  return { vfs: openWorkspaceVfs(workspaceId, scope).vfs, workspaceId };
}

/** The agent dir's nodes (paths relative to {@link AGENT_DIR}); empty when the dir does not exist yet. */
export async function listAgentTree(vfs: Vfs): Promise<TreeEntry[]> {
  if (!(await vfs.exists(AGENT_DIR))) return [];
  return listProjectTree(vfs, AGENT_DIR);
}
