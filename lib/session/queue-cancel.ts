/**
 * Hand back the steer and follow-up texts still waiting in `session_queue` (marked claimed and cancelled, so no
 * run takes them). One statement shared by an abort, a run closing without delivering, and a prompt run taking
 * back what an earlier run left.
 */
import type { Query } from "@/lib/db/client";

/**
 * @returns the typed texts as pi's interactive mode restores them to the editor (`clearQueue`: steering messages,
 *   then follow-ups), each oldest first; `append` rows are kept. By kind first, so two requests that raced (a steer
 *   sent just before a follow-up, stored just after it) still come back in the order the user queued them.
 */
export async function cancelWaiting(q: Query, sessionId: string): Promise<string[]> {
  const rows = await q<{ seq: string | number; kind: string; input_text: string }>(
    `UPDATE session_queue SET claimed_at = now(), cancelled = true
     WHERE session_id = $1 AND claimed_at IS NULL AND kind IN ('steer', 'followUp') RETURNING seq, kind, input_text`,
    [sessionId],
  );
  const rank = (kind: string) => (kind === "steer" ? 0 : 1);
  return rows
    .sort((a, b) => rank(a.kind) - rank(b.kind) || Number(a.seq) - Number(b.seq))
    .map((r) => r.input_text);
}
