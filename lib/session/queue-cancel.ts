/**
 * Hand back the steer and follow-up texts still waiting in `session_queue` (marked claimed and cancelled, so no
 * run takes them). One statement shared by an abort, a run closing without delivering, and a prompt run taking
 * back what an earlier run left.
 */
import type { Query } from "@/lib/db/client";

/** @returns the typed texts, oldest first; `append` rows are kept. */
export async function cancelWaiting(q: Query, sessionId: string): Promise<string[]> {
  const rows = await q<{ seq: string | number; input_text: string }>(
    `UPDATE session_queue SET claimed_at = now(), cancelled = true
     WHERE session_id = $1 AND claimed_at IS NULL AND kind IN ('steer', 'followUp') RETURNING seq, input_text`,
    [sessionId],
  );
  return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map((r) => r.input_text);
}
