/**
 * Who wrote each message a run persists (issue 28: "each user message shows its author"). A run's own prompt is its
 * caller's; a steer or follow-up another member queued is theirs — the queue row says who, and the message object it
 * delivers carries that here until the run persists it as an entry (`session_entries.author_user_id`).
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { QueuedMessage } from "@/lib/session/queue";

const authors = new WeakMap<AgentMessage, string>();

/** The messages of claimed queue rows, each remembered with the user who queued it. */
export function queuedMessages(rows: readonly QueuedMessage[]): AgentMessage[] {
  for (const row of rows) if (row.userId) authors.set(row.message, row.userId);
  return rows.map((row) => row.message);
}

/**
 * The author to store with `message`: for a user message or a `!command`, the user who queued it, else `runUser`
 * (the run's caller); null for what the agent wrote (assistant messages, tool results, custom messages).
 */
export function authorOf(message: AgentMessage, runUser: string | null | undefined): string | null {
  if (message.role !== "user" && message.role !== "bashExecution") return null;
  return authors.get(message) ?? runUser ?? null;
}
