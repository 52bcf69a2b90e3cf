/**
 * The per-workspace sandbox switch (`workspaces.sandbox_enabled`, off by default): whether the agent's bash tool
 * may run commands the simulated shell lacks (`npm test`, `pytest`, …) in the real sandbox of the execution
 * service (lib/exec/service/sandbox, docs/sandbox.md). Only an owner sets it (`PUT /api/workspaces/:id/sandbox`).
 * Edge-safe.
 */
import type { DbScope } from "@/lib/db/client";

/** Whether workspace `workspaceId` has the sandbox enabled (false for an unknown workspace). */
export async function getSandboxEnabled(scope: DbScope, workspaceId: string): Promise<boolean> {
  const rows = await scope.query<{ sandbox_enabled: boolean }>(
    "SELECT sandbox_enabled FROM workspaces WHERE id = $1",
    [workspaceId],
  );
  return rows[0]?.sandbox_enabled ?? false;
}

/**
 * Turn the sandbox of workspace `workspaceId` on or off (the caller is authorised as its owner before).
 * @returns the stored value.
 */
export async function setSandboxEnabled(
  scope: DbScope,
  workspaceId: string,
  enabled: boolean,
): Promise<boolean> {
  const rows = await scope.query<{ sandbox_enabled: boolean }>(
    "UPDATE workspaces SET sandbox_enabled = $2 WHERE id = $1 RETURNING sandbox_enabled",
    [workspaceId, enabled],
  );
  return rows[0]?.sandbox_enabled ?? enabled;
}
