/**
 * Context compaction, pure (pi's `core/compaction/compaction.ts`, pi's `compaction/compaction.ts`). The model call is
 * injected: `compact(preparation, summarize)` calls `summarize(prompt, systemPrompt, maxTokens)` and
 * never talks to a provider itself, so the agent layer wires the session's model.
 * Token estimation lives in ./token-estimate.ts, the cut point in ./cut-point.ts and the prompts in
 * ./summarization-prompts.ts; they are re-exported here.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { AssistantMessage, Usage } from "@/lib/llm/types";
import type { CompactionEntry, SessionEntry } from "../entries";
import { type ProjectedEntry, projectPath } from "../projection";
import { findProjectedCutPoint } from "./cut-point";
import {
  buildSummarizationPrompt,
  buildTurnPrefixPrompt,
  getSummarizationFailure,
} from "./summarization-prompts";
import { estimateProjectedContextTokens } from "./token-estimate";
import {
  computeFileLists,
  contentText,
  createFileOps,
  extractFileOpsFromMessage,
  type FileOperations,
  formatFileOperations,
  SUMMARIZATION_SYSTEM_PROMPT,
} from "./utils";

export { type CutPointResult, findCutPoint, findTurnStartIndex, isSplitTurn } from "./cut-point";
export {
  buildSummarizationPrompt,
  buildTurnPrefixPrompt,
  getSummarizationFailure,
  SUMMARIZATION_PROMPT,
  TURN_PREFIX_SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
} from "./summarization-prompts";
export {
  type ContextUsageEstimate,
  calculateContextTokens,
  estimateContextTokens,
  estimateProjectedContextTokens,
  estimateTokens,
} from "./token-estimate";

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

/** pi's `compaction/compaction.ts`: `enabled && tokens > window - reserveTokens` (pi `shouldCompact`). */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: CompactionSettings,
): boolean {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
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
