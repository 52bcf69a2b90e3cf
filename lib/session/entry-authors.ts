/**
 * Who wrote the user messages of a branch (`session_entries.author_user_id`, written by the run that persisted them):
 * shown on each user message, so a team sees who asked for what. Kept beside the pi entry, never in it.
 */
import type { DbScope } from "@/lib/db/client";
import type { SessionEntry } from "./entries";

/**
 * The authors of the user messages on `branch` (entries of session `sessionId`), by the message's `timestamp`
 * (ms, as a string: the chat's identity of a message across re-reads) → the author's display name. Messages without a
 * stored author (the agent's, or written before authors were kept) are absent.
 */
export async function branchAuthors(
  scope: DbScope,
  sessionId: string,
  branch: readonly SessionEntry[],
): Promise<Record<string, string>> {
  const users = new Map<string, number>();
  for (const e of branch) {
    const m = e.type === "message" ? (e.message as { role?: unknown; timestamp?: unknown }) : null;
    if (m?.role === "user" && typeof m.timestamp === "number") users.set(e.id, m.timestamp);
  }
  if (users.size === 0) return {};
  const rows = await scope.query<{ id: string; name: string }>(
    `SELECT e.id, u.name FROM session_entries e JOIN users u ON u.id = e.author_user_id
     WHERE e.session_id = $1 AND e.id = ANY($2::text[])`,
    [sessionId, [...users.keys()]],
  );
  return Object.fromEntries(rows.map((r) => [String(users.get(r.id)), r.name]));
}
