/** pi's `agent-session.ts`: how a run's message is persisted. */

import type { AgentMessage } from "@/lib/agent/messages";
import type { NewEntry } from "@/lib/session/entries";

/**
 * `custom` → a `custom_message` entry (`customType`, `content`, `display`, `details?`); `system`, `user`,
 * `assistant`, `toolResult` and `bashExecution` → `message` entries; summaries → `null` (they come from
 * `compaction` / `branch_summary` entries, pi's `session-manager.ts`). Pure.
 */
export function messageToEntry(message: AgentMessage): NewEntry | null {
  switch (message.role) {
    case "custom":
      return {
        type: "custom_message",
        customType: message.customType,
        content: message.content,
        display: message.display,
        ...(message.details !== undefined ? { details: message.details } : {}),
      };
    case "branchSummary":
    case "compactionSummary":
      return null;
    default:
      return { type: "message", message };
  }
}
