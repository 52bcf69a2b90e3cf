/**
 * Branch summaries for tree navigation, pure (pi's `core/compaction/branch-summarization.ts`): collect
 * the entries of the branch being left, fit them to a token budget, and summarize them with the
 * injected `summarize(prompt, systemPrompt, maxTokens)`.
 */
import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from "@/lib/agent/messages";
import type { Usage } from "@/lib/llm/types";
import type { SessionEntry } from "../entries";
import { normalizeMessage, repairContent } from "../entry-repair";
import { buildSessionPath } from "../projection";
import { estimateTokens, getSummarizationFailure, type SummarizeFn } from "./compaction";
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

/** Text put before the model's branch summary (pi `BRANCH_SUMMARY_PREAMBLE`, exact). */
export const BRANCH_SUMMARY_PREAMBLE =
  "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n";

/** Instructions of a branch summary (pi `BRANCH_SUMMARY_PROMPT`, exact). */
export const BRANCH_SUMMARY_PROMPT = `Create a structured summary of this conversation branch for context when returning later.

Use this EXACT format:

## Goal
[What was the user trying to accomplish in this branch?]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Work that was started but not finished]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [What should happen next to continue this work]

Keep each section concise. Preserve exact file paths, function names, and error messages.`;

/**
 * Entries from `oldLeafId` back to (excluding) the deepest common ancestor with `targetId`, oldest
 * first; compactions are included (pi `collectEntriesForBranchSummary`, over an entry list).
 */
export function collectEntriesForBranchSummary(
  entries: readonly SessionEntry[],
  oldLeafId: string | null,
  targetId: string,
): { entries: SessionEntry[]; commonAncestorId: string | null } {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const byId = new Map(entries.map((e) => [e.id, e]));
  const oldPath = new Set(buildSessionPath(entries, oldLeafId, byId).map((e) => e.id));
  const targetPath = buildSessionPath(entries, targetId, byId);
  let commonAncestorId: string | null = null;
  for (let i = targetPath.length - 1; i >= 0; i--) {
    if (oldPath.has(targetPath[i].id)) {
      commonAncestorId = targetPath[i].id;
      break;
    }
  }
  const out: SessionEntry[] = [];
  let current: string | null = oldLeafId;
  while (current && current !== commonAncestorId) {
    const e = byId.get(current);
    if (!e) break;
    out.push(e);
    current = e.parentId;
  }
  return { entries: out.reverse(), commonAncestorId };
}

function messageForBranch(entry: SessionEntry): AgentMessage | undefined {
  const ts = new Date(entry.timestamp).getTime();
  switch (entry.type) {
    case "message": {
      // As the projection reads it: broken content repaired, missing content and usage defaulted.
      const m = normalizeMessage(entry.message);
      return !m || m.role === "toolResult" ? undefined : m;
    }
    case "custom_message": {
      const e = entry as SessionEntry & Omit<CustomMessage, "role" | "timestamp">;
      return {
        role: "custom",
        customType: e.customType,
        content: (repairContent(e.content, "content", []).content ?? []) as CustomMessage["content"],
        display: e.display,
        details: e.details,
        timestamp: ts,
      };
    }
    case "branch_summary":
      return {
        role: "branchSummary",
        summary: entry.summary as string,
        fromId: entry.fromId as string,
        timestamp: ts,
      } satisfies BranchSummaryMessage;
    case "compaction":
      return {
        role: "compactionSummary",
        summary: entry.summary as string,
        tokensBefore: entry.tokensBefore as number,
        timestamp: ts,
      } satisfies CompactionSummaryMessage;
    default:
      return undefined;
  }
}

/**
 * pi `prepareBranchEntries`: file ops from every pi-made branch summary's details, then messages from
 * newest to oldest until `tokenBudget` (0 = unlimited); a summary that does not fit is still taken
 * while under 90% of the budget. Tool results are skipped (the call carries the context).
 */
export function prepareBranchEntries(
  entries: readonly SessionEntry[],
  tokenBudget = 0,
): { messages: AgentMessage[]; fileOps: FileOperations; totalTokens: number } {
  const messages: AgentMessage[] = [];
  const fileOps = createFileOps();
  let totalTokens = 0;
  for (const e of entries) {
    if (e.type !== "branch_summary" || e.fromHook || !e.details) continue;
    const d = e.details as { readFiles?: unknown; modifiedFiles?: unknown };
    if (Array.isArray(d.readFiles)) for (const f of d.readFiles) fileOps.read.add(f);
    if (Array.isArray(d.modifiedFiles)) for (const f of d.modifiedFiles) fileOps.edited.add(f);
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const message = messageForBranch(entry);
    if (!message) continue;
    extractFileOpsFromMessage(message, fileOps);
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      if (
        (entry.type === "compaction" || entry.type === "branch_summary") &&
        totalTokens < tokenBudget * 0.9
      ) {
        messages.unshift(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.unshift(message);
    totalTokens += tokens;
  }
  return { messages, fileOps, totalTokens };
}

/** `generateBranchSummary` result (pi `BranchSummaryResult`). */
export interface BranchSummaryResult {
  summary?: string;
  usage?: Usage;
  readFiles?: string[];
  modifiedFiles?: string[];
  aborted?: boolean;
  /** `Branch summarization failed: …` or `Branch summarization attempted to call a tool`. */
  error?: string;
}

/**
 * pi `generateBranchSummary`: budget = `contextWindow (default 128000) - reserveTokens (default 16384)`;
 * no messages → `{summary:"No content to summarize"}`; prompt `<conversation>\n…\n</conversation>\n\n`
 * + instructions (custom instructions appended as `Additional focus:` or replacing them); max tokens
 * `min(4096, modelMaxTokens)`; the reply is prefixed with `BRANCH_SUMMARY_PREAMBLE` and followed by the
 * file lists. Failures are returned, not thrown.
 */
export async function generateBranchSummary(
  entries: readonly SessionEntry[],
  options: {
    summarize: SummarizeFn;
    contextWindow?: number;
    modelMaxTokens?: number;
    reserveTokens?: number;
    customInstructions?: string;
    replaceInstructions?: boolean;
  },
): Promise<BranchSummaryResult> {
  const tokenBudget = (options.contextWindow || 128000) - (options.reserveTokens ?? 16384);
  const { messages, fileOps } = prepareBranchEntries(entries, tokenBudget);
  if (messages.length === 0) return { summary: "No content to summarize" };
  const conversation = serializeConversation(convertToLlm(messages));
  const { customInstructions, replaceInstructions } = options;
  const instructions =
    replaceInstructions && customInstructions
      ? customInstructions
      : customInstructions
        ? `${BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: ${customInstructions}`
        : BRANCH_SUMMARY_PROMPT;
  const maxTokens = Math.min(
    4096,
    options.modelMaxTokens && options.modelMaxTokens > 0 ? options.modelMaxTokens : Number.POSITIVE_INFINITY,
  );
  const response = await options.summarize(
    `<conversation>\n${conversation}\n</conversation>\n\n${instructions}`,
    SUMMARIZATION_SYSTEM_PROMPT,
    maxTokens,
  );
  if (response.stopReason === "aborted") return { aborted: true };
  const failure = getSummarizationFailure(response, "Branch summarization");
  if (failure) return { error: failure };
  if (response.content.some((b) => b.type === "toolCall"))
    return { error: "Branch summarization attempted to call a tool" };
  const { readFiles, modifiedFiles } = computeFileLists(fileOps);
  const summary =
    BRANCH_SUMMARY_PREAMBLE + contentText(response.content) + formatFileOperations(readFiles, modifiedFiles);
  return { summary: summary || "No summary generated", usage: response.usage, readFiles, modifiedFiles };
}
