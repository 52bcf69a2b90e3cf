/**
 * Context compaction, pure (pi's `core/compaction/compaction.ts`, pi's `compaction/compaction.ts`). The model call is
 * injected: `compact(preparation, summarize)` calls `summarize(prompt, systemPrompt, maxTokens)` and
 * never talks to a provider itself, so the agent layer wires the session's model.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { AssistantMessage, SystemMessage, Usage } from "@/lib/llm/types";
import { getCurrentSystemMessage } from "@/lib/prompt/system-message";
import type { CompactionEntry, SessionEntry } from "../entries";
import {
  type ProjectedEntry,
  projectPath,
  type SessionProjection,
  sessionEntryToContextMessages,
} from "../projection";
import {
  computeFileLists,
  contentText,
  convertToLlm,
  createFileOps,
  extractFileOpsFromMessage,
  type FileOperations,
  formatFileOperations,
  SUMMARIZATION_SYSTEM_PROMPT,
  serializeConversation,
} from "./utils";

/** Compaction settings (pi `CompactionSettings`); token counts. */
export interface CompactionSettings {
  enabled: boolean;
  /** Tokens kept free for the summary and the next reply; compaction triggers above `window - reserve`. */
  reserveTokens: number;
  /** Tokens of recent messages kept verbatim. */
  keepRecentTokens: number;
}

/** pi's `compaction/compaction.ts` */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
};

/** `details` of a pi-generated compaction: the file lists appended to its summary. */
export interface CompactionDetails {
  readFiles: string[];
  modifiedFiles: string[];
}

/** The injected model call: one request with `systemPrompt` and a single user `prompt`, at most `maxTokens` out. */
export type SummarizeFn = (
  prompt: string,
  systemPrompt: string,
  maxTokens: number,
) => Promise<AssistantMessage>;

/** Context tokens of a usage record: `totalTokens`, else the sum of its parts (pi `calculateContextTokens`). */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** pi's `compaction/compaction.ts`: `enabled && tokens > window - reserveTokens` (pi `shouldCompact`). */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: CompactionSettings,
): boolean {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
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

const CUT_POINT_ROLES = new Set([
  "user",
  "assistant",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
]);
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

function isTurnStartEntry(entry: SessionEntry): boolean {
  if (entry.type === "compaction") return false;
  return sessionEntryToContextMessages(entry).some((m) => TURN_START_ROLES.has(m.role));
}

/** Index of the turn start (user-like entry) at or before `entryIndex`, not before `startIndex`; -1 if none. */
export function findTurnStartIndex(
  entries: readonly SessionEntry[],
  entryIndex: number,
  startIndex: number,
): number {
  for (let i = entryIndex; i >= startIndex; i--) if (isTurnStartEntry(entries[i])) return i;
  return -1;
}

/** `findCutPoint` result (indices into the entries passed). */
export interface CutPointResult {
  firstKeptEntryIndex: number;
  /** Turn start of a split turn, else -1. */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/**
 * pi's `compaction/compaction.ts` (pi `findCutPoint`): within `[startIndex, endIndex)`, walk back from the newest entry summing
 * message estimates; once the sum reaches `keepRecentTokens`, cut at the first valid cut point at or
 * after that entry (or the last cut point when none is — a trailing tool result keeps its call). Valid
 * cut points contribute user, assistant, bashExecution, custom or summary messages — never a tool
 * result, never a compaction. The cut then extends backwards over context-free entries (settings,
 * labels…), stopping at a compaction or a context-visible entry. `isSplitTurn` = the cut entry is not
 * a turn start and a turn start exists before it.
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const cutPoints: number[] = [];
  for (let i = startIndex; i < endIndex; i++) {
    const e = entries[i];
    if (e.type !== "compaction" && sessionEntryToContextMessages(e).some((m) => CUT_POINT_ROLES.has(m.role)))
      cutPoints.push(i);
  }
  if (cutPoints.length === 0)
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  let accumulated = 0;
  let cutIndex = cutPoints[0];
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const tokens = sessionEntryToContextMessages(entries[i]).reduce((s, m) => s + estimateTokens(m), 0);
    if (tokens === 0) continue;
    accumulated += tokens;
    if (accumulated >= keepRecentTokens) {
      cutIndex = cutPoints.find((c) => c >= i) ?? cutPoints[cutPoints.length - 1];
      break;
    }
  }
  while (cutIndex > startIndex) {
    const prev = entries[cutIndex - 1];
    if (prev.type === "compaction" || sessionEntryToContextMessages(prev).length > 0) break;
    cutIndex--;
  }
  const startsTurn = isTurnStartEntry(entries[cutIndex]);
  const turnStartIndex = startsTurn ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}

/** pi's `compaction/compaction.ts`: whether `findCutPoint` at `cutIndex` splits a turn (the cut entry is not a turn start and one precedes it). */
export function isSplitTurn(entries: readonly SessionEntry[], cutIndex: number, startIndex = 0): boolean {
  return !isTurnStartEntry(entries[cutIndex]) && findTurnStartIndex(entries, cutIndex, startIndex) !== -1;
}

function isProjectedTurnStart(entry: ProjectedEntry): boolean {
  return entry.sourceEntry.type !== "compaction" && entry.messages.some((m) => TURN_START_ROLES.has(m.role));
}

/** pi `findProjectedCutPoint`: `findCutPoint` over projected entries (edits applied), with its recovery-omission rule. */
function findProjectedCutPoint(
  entries: readonly ProjectedEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const cutPoints: number[] = [];
  for (let i = startIndex; i < endIndex; i++) {
    const e = entries[i];
    if (e.sourceEntry.type !== "compaction" && e.messages.some((m) => CUT_POINT_ROLES.has(m.role)))
      cutPoints.push(i);
  }
  if (cutPoints.length === 0)
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  let accumulated = 0;
  let exceeded = false;
  let cutIndex = cutPoints[0];
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const tokens = entries[i].messages.reduce((s, m) => s + estimateTokens(m), 0);
    if (tokens === 0) continue;
    accumulated += tokens;
    if (accumulated >= keepRecentTokens) {
      exceeded = true;
      cutIndex = cutPoints.find((c) => c >= i) ?? cutPoints[cutPoints.length - 1];
      break;
    }
  }
  const suffix = entries.slice(cutIndex + 1, endIndex);
  const visible = (e: ProjectedEntry) =>
    e.sourceEntry.type !== "context_edit" && sessionEntryToContextMessages(e.sourceEntry).length > 0;
  const omitted = (e: ProjectedEntry) => visible(e) && e.messages.length === 0;
  const omittedIds = new Set(suffix.filter(omitted).map((e) => e.sourceEntry.id));
  const externalReplacement = suffix.some(
    (e) =>
      e.sourceEntry.type === "context_edit" &&
      e.sourceEntry.replacement !== null &&
      !omittedIds.has(e.sourceEntry.targetId as string),
  );
  if (
    exceeded &&
    !externalReplacement &&
    suffix.some(
      (e) =>
        e.sourceEntry.type === "message" &&
        (e.sourceEntry.message as AgentMessage).role === "assistant" &&
        omitted(e),
    ) &&
    suffix.every((e) => e.sourceEntry.type !== "compaction" && (!visible(e) || omitted(e)))
  ) {
    cutIndex++;
  }
  while (cutIndex > startIndex) {
    const prev = entries[cutIndex - 1];
    if (prev.sourceEntry.type === "compaction" || prev.messages.length > 0) break;
    cutIndex--;
  }
  const startsTurn = isProjectedTurnStart(entries[cutIndex]);
  let turnStartIndex = -1;
  if (!startsTurn)
    for (let i = cutIndex; i >= startIndex; i--)
      if (isProjectedTurnStart(entries[i])) {
        turnStartIndex = i;
        break;
      }
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}

/** What `compact` needs, computed from the branch (pi `CompactionPreparation`). */
export interface CompactionPreparation {
  firstKeptEntryId: string;
  messagesToSummarize: AgentMessage[];
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOperations;
  settings: CompactionSettings;
}

/**
 * pi `prepareCompaction(pathEntries, settings)`: `undefined` when the branch ends in a compaction or
 * there is nothing to summarize. Works on the projection (edits applied, older compactions silent):
 * the boundary starts after the previous (contributing) compaction, whose summary becomes
 * `previousSummary`; system messages are never summarized.
 */
export function prepareCompaction(
  pathEntries: readonly SessionEntry[],
  settings: CompactionSettings,
): CompactionPreparation | undefined {
  if (pathEntries.length > 0 && pathEntries[pathEntries.length - 1].type === "compaction") return undefined;
  const projection = projectPath(pathEntries);
  const projected = projection.entries;
  const prevIndex = projected.findIndex((e) => e.sourceEntry.type === "compaction" && e.messages.length > 0);
  let previousSummary: string | undefined;
  let boundaryStart = 0;
  if (prevIndex >= 0) {
    previousSummary = (projected[prevIndex].sourceEntry as CompactionEntry).summary;
    boundaryStart = prevIndex + 1;
  }
  const tokensBefore = estimateProjectedContextTokens(projection, pathEntries).tokens;
  const cut = findProjectedCutPoint(projected, boundaryStart, projected.length, settings.keepRecentTokens);
  const firstKept = projected[cut.firstKeptEntryIndex]?.sourceEntry;
  if (!firstKept?.id) return undefined;
  const forSummary = (e: ProjectedEntry) =>
    e.sourceEntry.type === "compaction" ? [] : e.messages.filter((m) => m.role !== "system");
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = projected.slice(boundaryStart, historyEnd).flatMap(forSummary);
  const turnPrefixMessages = cut.isSplitTurn
    ? projected.slice(cut.turnStartIndex, cut.firstKeptEntryIndex).flatMap(forSummary)
    : [];
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;
  const fileOps = createFileOps();
  if (prevIndex >= 0) {
    const prev = projected[prevIndex].sourceEntry as CompactionEntry<Partial<CompactionDetails>>;
    if (!prev.fromHook && prev.details) {
      if (Array.isArray(prev.details.readFiles)) for (const f of prev.details.readFiles) fileOps.read.add(f);
      if (Array.isArray(prev.details.modifiedFiles))
        for (const f of prev.details.modifiedFiles) fileOps.edited.add(f);
    }
  }
  for (const m of messagesToSummarize) extractFileOpsFromMessage(m, fileOps);
  for (const m of turnPrefixMessages) extractFileOpsFromMessage(m, fileOps);
  return {
    firstKeptEntryId: firstKept.id,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    previousSummary,
    fileOps,
    settings,
  };
}

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

function replyText(response: AssistantMessage, label: string): string {
  const failure = getSummarizationFailure(response, label);
  if (failure) throw new Error(failure);
  if (response.content.some((b) => b.type === "toolCall"))
    throw new Error(`${label} attempted to call a tool`);
  return contentText(response.content);
}

function budget(ratio: number, reserveTokens: number, modelMaxTokens?: number): number {
  return Math.min(
    Math.floor(ratio * reserveTokens),
    modelMaxTokens && modelMaxTokens > 0 ? modelMaxTokens : Number.POSITIVE_INFINITY,
  );
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    totalTokens: a.totalTokens + b.totalTokens,
    cost: {
      input: a.cost.input + b.cost.input,
      output: a.cost.output + b.cost.output,
      cacheRead: a.cost.cacheRead + b.cost.cacheRead,
      cacheWrite: a.cost.cacheWrite + b.cost.cacheWrite,
      total: a.cost.total + b.cost.total,
    },
  };
}

/** What `compact` returns; the store turns it into a compaction entry (pi `CompactionResult`). */
export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  usage?: Usage;
  details: CompactionDetails;
}

/**
 * pi `compact`: summarize the prepared history (max tokens `min(floor(0.8 × reserve), modelMaxTokens)`);
 * for a split turn also the turn prefix (`0.5 × reserve`) and join them as
 * `<history or previous summary or "No prior history.">\n\n---\n\n**Turn Context (split turn):**\n\n<prefix>`
 * (pi's `compaction/compaction.ts`); then append the file lists (pi's `compaction/compaction.ts`).
 * @throws Error with 8.9's text (`Summarization failed: …`, `Summarization attempted to call a tool`,
 *   `Turn prefix summarization …`) — nothing is persisted then.
 */
export async function compact(
  preparation: CompactionPreparation,
  summarize: SummarizeFn,
  options: { customInstructions?: string; modelMaxTokens?: number } = {},
): Promise<CompactionResult> {
  const { messagesToSummarize, turnPrefixMessages, previousSummary, settings } = preparation;
  const history = async () => {
    const prompt = buildSummarizationPrompt(messagesToSummarize, previousSummary, options.customInstructions);
    const reply = await summarize(
      prompt,
      SUMMARIZATION_SYSTEM_PROMPT,
      budget(0.8, settings.reserveTokens, options.modelMaxTokens),
    );
    return { text: replyText(reply, "Summarization"), usage: reply.usage };
  };
  let summary: string;
  let usage: Usage | undefined;
  if (preparation.isSplitTurn && turnPrefixMessages.length > 0) {
    let historyText = previousSummary ?? "No prior history.";
    if (messagesToSummarize.length > 0) {
      const h = await history();
      historyText = h.text;
      usage = h.usage;
    }
    const reply = await summarize(
      buildTurnPrefixPrompt(turnPrefixMessages),
      SUMMARIZATION_SYSTEM_PROMPT,
      budget(0.5, settings.reserveTokens, options.modelMaxTokens),
    );
    const prefix = replyText(reply, "Turn prefix summarization");
    summary = `${historyText}\n\n---\n\n**Turn Context (split turn):**\n\n${prefix}`;
    usage = usage ? addUsage(usage, reply.usage) : reply.usage;
  } else {
    const h = await history();
    summary = h.text;
    usage = h.usage;
  }
  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  summary += formatFileOperations(readFiles, modifiedFiles);
  return {
    summary,
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    usage,
    details: { readFiles, modifiedFiles },
  };
}

/** The system message a compaction entry stores: the replayed current one, stamped with the compaction time (pi's `session-manager.ts`). */
export function compactionSystemMessage(
  messages: readonly AgentMessage[],
  timestampMs: number,
): SystemMessage | undefined {
  const current = getCurrentSystemMessage(messages);
  return current ? { ...current, timestamp: timestampMs } : undefined;
}
