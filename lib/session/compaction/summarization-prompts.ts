/**
 * The summarization prompts of compaction (pi's `compaction/compaction.ts`: `SUMMARIZATION_PROMPT`,
 * `UPDATE_SUMMARIZATION_PROMPT`, `TURN_PREFIX_SUMMARIZATION_PROMPT`, `getSummarizationFailure`, and the prompt
 * assembly of `generateSummary` / `generateTurnPrefixSummary`): the exact instruction texts, the user prompts built
 * around the serialized conversation, and the failure text of a reply that must not be persisted.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { AssistantMessage } from "@/lib/llm/types";
import { convertToLlm, serializeConversation } from "./utils";

/** pi's `compaction/compaction.ts`: the first-summary instructions (pi `SUMMARIZATION_PROMPT`, exact). */
export const SUMMARIZATION_PROMPT = `The messages above are a conversation to summarize. Create a structured context checkpoint summary that another LLM will use to continue the work.

Use this EXACT format:

## Goal
[What is the user trying to accomplish? Can be multiple items if the session covers different tasks.]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned by user]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Current work]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [Ordered list of what should happen next]

## Critical Context
- [Any data, examples, or references needed to continue]
- [Or "(none)" if not applicable]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

/** pi's `compaction/compaction.ts`: the update instructions after `<previous-summary>` (pi `UPDATE_SUMMARIZATION_PROMPT`, exact). */
export const UPDATE_SUMMARIZATION_PROMPT = `The messages above are NEW conversation messages to incorporate into the existing summary provided in <previous-summary> tags.

Update the existing structured summary with new information. RULES:
- PRESERVE all existing information from the previous summary
- ADD new progress, decisions, and context from the new messages
- UPDATE the Progress section: move items from "In Progress" to "Done" when completed
- UPDATE "Next Steps" based on what was accomplished
- PRESERVE exact file paths, function names, and error messages
- If something is no longer relevant, you may remove it

Use this EXACT format:

## Goal
[Preserve existing goals, add new ones if the task expanded]

## Constraints & Preferences
- [Preserve existing, add new ones discovered]

## Progress
### Done
- [x] [Include previously done items AND newly completed items]

### In Progress
- [ ] [Current work - update based on progress]

### Blocked
- [Current blockers - remove if resolved]

## Key Decisions
- **[Decision]**: [Brief rationale] (preserve all previous, add new)

## Next Steps
1. [Update based on current state]

## Critical Context
- [Preserve important context, add new if needed]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

/** pi's `compaction/compaction.ts`: instructions of the split-turn prefix summary (pi `TURN_PREFIX_SUMMARIZATION_PROMPT`, exact). */
export const TURN_PREFIX_SUMMARIZATION_PROMPT = `The messages above are earlier context from an ongoing conversation. Later messages are stored separately and do not need to be reconstructed.

Create a concise checkpoint of the user's request and the progress shown above. This checkpoint will be placed before the later messages so the conversation can continue with the necessary context.

## Original Request
[What did the user ask for?]

## Progress So Far
- [Key decisions and work completed in these messages]

## Context Needed to Continue
- [Information from these messages needed to understand the later work]

Only summarize information explicitly present above. Do not infer or recreate later messages.`;

/**
 * pi's `compaction/compaction.ts`: the failure text for a summarization reply that must not be persisted, or `undefined`:
 * `<label> failed: <errorMessage|Unknown error>` for `error`, `<label> failed: generation hit the token
 * cap and the summary is incomplete` for `length` (pi `getSummarizationFailure`).
 */
export function getSummarizationFailure(response: AssistantMessage, label: string): string | undefined {
  if (response.stopReason === "error") return `${label} failed: ${response.errorMessage || "Unknown error"}`;
  if (response.stopReason === "length")
    return `${label} failed: generation hit the token cap and the summary is incomplete`;
  return undefined;
}

/**
 * pi's `compaction/compaction.ts`: the summarization user prompt: `<conversation>\n…\n</conversation>\n\n`, then
 * `<previous-summary>\n…\n</previous-summary>\n\n` when updating, then the instructions (+
 * `\n\nAdditional focus: <custom>`).
 */
export function buildSummarizationPrompt(
  messages: readonly AgentMessage[],
  previousSummary?: string,
  customInstructions?: string,
): string {
  let base = previousSummary ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT;
  if (customInstructions) base = `${base}\n\nAdditional focus: ${customInstructions}`;
  let prompt = `<conversation>\n${serializeConversation(convertToLlm(messages))}\n</conversation>\n\n`;
  if (previousSummary) prompt += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
  return prompt + base;
}

/** pi's `compaction/compaction.ts`: the split-turn prefix prompt: `# Conversation\n…\n\n# Instructions\n<TURN_PREFIX_SUMMARIZATION_PROMPT>`. */
export function buildTurnPrefixPrompt(messages: readonly AgentMessage[]): string {
  return `# Conversation\n${serializeConversation(convertToLlm(messages))}\n\n# Instructions\n${TURN_PREFIX_SUMMARIZATION_PROMPT}`;
}
