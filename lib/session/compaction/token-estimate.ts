/**
 * Token counting for compaction (the estimation half of pi's `compaction/compaction.ts`: `calculateContextTokens`,
 * `estimateTokens`, `estimateContextTokens`, `estimateProjectedContextTokens`): a usage record's context size, the
 * `ceil(chars / 4)` estimate of one message, and the context size of a message list or a projected branch.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { Usage } from "@/lib/llm/types";
import { getCurrentSystemMessage } from "@/lib/prompt/system-message";
import type { SessionEntry } from "../entries";
import type { SessionProjection } from "../projection";

/** Context tokens of a usage record: `totalTokens`, else the sum of its parts (pi `calculateContextTokens`). */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

const ESTIMATED_IMAGE_CHARS = 4800;

function textAndImageChars(
  content: string | readonly { type: string; text?: string }[] | null | undefined,
): number {
  if (typeof content === "string") return content.length;
  let chars = 0;
  for (const block of content ?? []) {
    if (block.type === "text" && block.text) chars += block.text.length;
    else if (block.type === "image") chars += ESTIMATED_IMAGE_CHARS;
  }
  return chars;
}

/**
 * pi's `compaction/compaction.ts`: `ceil(chars / 4)` — user/custom/toolResult text (+4800 per image); assistant text + thinking +
 * tool name + JSON of arguments; bashExecution command + output; summaries' text; system text +
 * section values + JSON of `toolsAdded` (pi `estimateTokens`).
 */
export function estimateTokens(message: AgentMessage): number {
  let chars = 0;
  switch (message.role) {
    case "system": {
      chars = textAndImageChars(message.content);
      for (const section of Object.values(message.sections ?? {})) if (section) chars += section.length;
      if (message.toolsAdded) chars += JSON.stringify(message.toolsAdded).length;
      return Math.ceil(chars / 4);
    }
    case "user":
    case "custom":
    case "toolResult":
      return Math.ceil(textAndImageChars(message.content) / 4);
    case "assistant":
      for (const block of message.content ?? []) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else if (block.type === "toolCall")
          chars += block.name.length + JSON.stringify(block.arguments).length;
      }
      return Math.ceil(chars / 4);
    case "bashExecution":
      return Math.ceil((message.command.length + message.output.length) / 4);
    case "branchSummary":
    case "compactionSummary":
      return Math.ceil(message.summary.length / 4);
  }
  return 0;
}

function assistantUsage(msg: AgentMessage): Usage | undefined {
  if (msg.role !== "assistant") return undefined;
  if (msg.stopReason === "aborted" || msg.stopReason === "error" || !msg.usage) return undefined;
  return calculateContextTokens(msg.usage) > 0 ? msg.usage : undefined;
}

/** Result of `estimateContextTokens`. */
export interface ContextUsageEstimate {
  tokens: number;
  usageTokens: number;
  trailingTokens: number;
  lastUsageIndex: number | null;
}

/**
 * Context size: the last valid assistant usage plus estimates of the messages after it, or the sum of
 * estimates when there is none (pi `estimateContextTokens`).
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): ContextUsageEstimate {
  for (let i = messages.length - 1; i >= 0; i--) {
    const usage = assistantUsage(messages[i]);
    if (!usage) continue;
    const usageTokens = calculateContextTokens(usage);
    let trailingTokens = 0;
    for (let j = i + 1; j < messages.length; j++) trailingTokens += estimateTokens(messages[j]);
    return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: i };
  }
  let estimated = 0;
  for (const m of messages) estimated += estimateTokens(m);
  return { tokens: estimated, usageTokens: 0, trailingTokens: estimated, lastUsageIndex: null };
}

/**
 * pi `estimateProjectedContextTokens`: the usage-based estimate unless a context_edit or compaction on
 * the branch is newer than the usage's entry; then the current system message plus every non-system
 * message, estimated.
 */
export function estimateProjectedContextTokens(
  projection: SessionProjection,
  branchEntries: readonly SessionEntry[],
): ContextUsageEstimate {
  const estimate = estimateContextTokens(projection.messages);
  if (estimate.lastUsageIndex !== null) {
    let index = 0;
    let usageEntryId: string | undefined;
    for (const entry of projection.entries) {
      const next = index + entry.messages.length;
      if (estimate.lastUsageIndex < next) {
        usageEntryId = entry.sourceEntry.id;
        break;
      }
      index = next;
    }
    const usageEntryIndex = usageEntryId ? branchEntries.findIndex((e) => e.id === usageEntryId) : -1;
    let invalidating = -1;
    for (let i = branchEntries.length - 1; i >= 0; i--) {
      if (branchEntries[i].type === "context_edit" || branchEntries[i].type === "compaction") {
        invalidating = i;
        break;
      }
    }
    if (usageEntryIndex > invalidating) return estimate;
  }
  const system = getCurrentSystemMessage(projection.messages);
  let tokens = system ? estimateTokens(system) : 0;
  for (const m of projection.messages) if (m.role !== "system") tokens += estimateTokens(m);
  return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}
