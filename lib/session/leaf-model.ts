/**
 * The current model of each session of a project, read from the derived columns of its leaf row (store.ts):
 * the last `model_change` or assistant message on the leaf's path, as pi's `buildSessionContext` computes it.
 */
import type { DbScope } from "@/lib/db/client";

/**
 * `provider/modelId` per session id of the project; null for a session without entries (or whose path names no
 * model). One query, no walk of the branches.
 */
export async function leafModels(scope: DbScope, projectId: string): Promise<Map<string, string | null>> {
  const rows = await scope.query<{ id: string; model_provider: string | null; model_id: string | null }>(
    `SELECT s.id, e.model_provider, e.model_id FROM sessions s
       LEFT JOIN session_entries e ON e.session_id = s.id AND e.id = s.leaf_id
      WHERE s.project_id = $1`,
    [projectId],
  );
  return new Map(
    rows.map((r) => [r.id, r.model_provider && r.model_id ? `${r.model_provider}/${r.model_id}` : null]),
  );
}
