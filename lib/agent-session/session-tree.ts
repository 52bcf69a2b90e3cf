/**
 * Moving around a stored session tree (pi `AgentSession.navigateTree()` and the tree/fork commands):
 * move the leaf to an entry, optionally leaving a summary of the abandoned branch written by the
 * session's model, and fork a branch into a new session.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { DbScope } from "@/lib/db/client";
import { StrataError } from "@/lib/errors/strata-error";
import type { Env, Model } from "@/lib/llm/models";
import { entryCommits } from "@/lib/session/checkpoint-rows";
import {
  collectEntriesForBranchSummary,
  generateBranchSummary,
} from "@/lib/session/compaction/branch-summarization";
import type { SummarizeFn } from "@/lib/session/compaction/compaction";
import { loadBranch } from "@/lib/session/context-load";
import type { BranchSummaryEntry, SessionEntry } from "@/lib/session/entries";
import { SessionNotFoundError } from "@/lib/session/errors";
import {
  appendLabel,
  branch,
  branchWithSummary,
  createBranchedSession,
  getSession,
  getTree,
  resetLeaf,
  type SessionRow,
} from "@/lib/session/store";
import { type SessionTreeViewNode, sessionTreeView } from "@/lib/session/tree-view";
import { NoModelError, resolveSessionModel, SummarizationError, summarizerFor } from "./compaction-run";

/** pi's default `branchSummary.reserveTokens`. */
export const BRANCH_SUMMARY_RESERVE_TOKENS = 16384;

/** `Entry <id> not found` (pi's text), as a type the HTTP layer answers with 404. */
export class EntryNotFoundError extends StrataError {
  constructor(entryId: string) {
    super(404, "not_found", `Entry ${entryId} not found`);
    this.name = "EntryNotFoundError";
  }
}

/** `Session <id> not found`, as a type the HTTP layer answers with 404. */
/** The one "session not found" error (lib/session/errors.ts), re-exported where callers have used it. */
export { SessionNotFoundError } from "@/lib/session/errors";

/** The session's tree as flat nodes (depth first, children oldest first) and its current leaf. */
export async function loadSessionTreeView(
  scope: DbScope,
  sessionId: string,
): Promise<{ leafId: string | null; nodes: SessionTreeViewNode[] }> {
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  const nodes = sessionTreeView(await getTree(scope, sessionId));
  // Each node's file state: its own recorded commit, else its parent's (parents come first, depth first).
  const recorded = await entryCommits(scope, sessionId);
  const effective = new Map<string, string>();
  for (const node of nodes) {
    const commit = recorded.get(node.id) ?? (node.parentId ? effective.get(node.parentId) : undefined);
    if (commit) {
      effective.set(node.id, commit);
      node.commit = commit;
    }
  }
  return { leafId: session.leafId, nodes };
}

/** Input of {@link navigateTree}. */
export interface NavigateTreeInput {
  scope: DbScope;
  sessionId: string;
  targetId: string;
  /** Summarize the branch being left (pi `/tree` with a branch summary). */
  summarize?: boolean;
  /** Appended as `Additional focus:` (or replacing the instructions with `replaceInstructions`). */
  customInstructions?: string;
  replaceInstructions?: boolean;
  env: Env;
  /** The summarizing model; default the session's (`resolveSessionModel`). */
  model?: Model;
  signal?: AbortSignal;
  /** Replaces the model call (tests, hooks). */
  summarizeFn?: SummarizeFn;
}

/** What {@link navigateTree} did. */
export interface NavigateTreeResult {
  /** The session's leaf afterwards (the summary entry when one was written; null = before the first entry). */
  leafId: string | null;
  /** Text of the target when it is a user or custom message: pi puts it back in the editor. */
  editorText?: string;
  summaryEntry?: BranchSummaryEntry;
  /** The summary request was aborted: nothing changed. */
  aborted?: boolean;
}

function textContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("");
}

/**
 * pi `navigateTree(targetId, { summarize })`:
 * - the target is the leaf already → nothing happens;
 * - with `summarize`, the entries from the old leaf back to the common ancestor with the target
 *   (`collectEntriesForBranchSummary`) are summarized by the model (`generateBranchSummary`: budget
 *   `contextWindow - 16384`, max tokens `min(4096, model.maxTokens)`; `No content to summarize` when
 *   they hold no messages); an aborted summary changes nothing;
 * - the new leaf is the target, or the target's parent when the target is a user or custom message
 *   (whose text is returned as `editorText`, to be edited and sent again);
 * - a summary is appended as a `branch_summary` under the new leaf (`branchWithSummary`), else the leaf
 *   moves (`branch`), or is reset when the new leaf is null.
 * @throws SessionNotFoundError, EntryNotFoundError, NoModelError (`No model available for
 *   summarization`), SummarizationError (`Branch summarization failed: …`).
 */
export async function navigateTree(input: NavigateTreeInput): Promise<NavigateTreeResult> {
  const { scope, sessionId, targetId } = input;
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  const oldLeafId = session.leafId;
  if (targetId === oldLeafId) return { leafId: oldLeafId };
  const model = input.summarize
    ? (input.model ?? (await resolveSessionModel(scope, sessionId, input.env)))
    : undefined;
  if (input.summarize && !model) throw new NoModelError();
  const targetPath = await loadBranch(scope, sessionId, targetId);
  const target = targetPath[targetPath.length - 1];
  if (!target || target.id !== targetId) throw new EntryNotFoundError(targetId);

  let summary: { text: string; details: unknown; usage?: BranchSummaryEntry["usage"] } | undefined;
  if (input.summarize && model) {
    const oldPath = await loadBranch(scope, sessionId, oldLeafId);
    const known = new Map<string, SessionEntry>();
    for (const e of [...oldPath, ...targetPath]) known.set(e.id, e);
    const { entries } = collectEntriesForBranchSummary([...known.values()], oldLeafId, targetId);
    if (entries.length > 0) {
      const result = await generateBranchSummary(entries, {
        summarize:
          input.summarizeFn ??
          summarizerFor(model, {
            env: input.env,
            signal: input.signal,
            beforeRequest: () => scope.release(),
          }),
        contextWindow: model.contextWindow,
        modelMaxTokens: model.maxTokens,
        reserveTokens: BRANCH_SUMMARY_RESERVE_TOKENS,
        customInstructions: input.customInstructions?.trim() || undefined,
        replaceInstructions: input.replaceInstructions,
      });
      if (result.aborted || input.signal?.aborted) return { leafId: oldLeafId, aborted: true };
      if (result.error) throw new SummarizationError(result.error);
      summary = {
        text: result.summary ?? "",
        details: { readFiles: result.readFiles ?? [], modifiedFiles: result.modifiedFiles ?? [] },
        usage: result.usage,
      };
    }
  }

  let newLeafId: string | null = targetId;
  let editorText: string | undefined;
  if (target.type === "message" && (target.message as AgentMessage).role === "user") {
    newLeafId = target.parentId;
    editorText = textContent((target.message as AgentMessage & { content: unknown }).content);
  } else if (target.type === "custom_message") {
    newLeafId = target.parentId;
    editorText = textContent(target.content);
  }

  if (summary) {
    const entry = (await branchWithSummary(scope, sessionId, newLeafId, summary.text, {
      details: summary.details,
      usage: summary.usage,
    })) as BranchSummaryEntry;
    return { leafId: entry.id, editorText, summaryEntry: entry };
  }
  if (newLeafId === null) await resetLeaf(scope, sessionId);
  else await branch(scope, sessionId, newLeafId);
  return { leafId: newLeafId, editorText };
}

/** Where a fork cuts (pi `AgentSessionRuntime.fork(entryId, { position })`). */
export type ForkPosition = "before" | "at";

/** What {@link forkSession} made. */
export interface ForkResult {
  session: SessionRow;
  /** `before`: the user message's text, for the new session's editor (pi's `selectedText`). */
  editorText?: string;
}

/** pi's refusal of a `before` fork of an entry that is not a user message (and of an unknown entry). */
export const INVALID_FORK_ENTRY = "Invalid entry ID for forking";

/**
 * Fork: a new session in the same project (pi `createBranchedSession`; labels of kept entries re-added;
 * header `parentSession` = the source id), cut as pi's runtime `fork(entryId, { position })` cuts:
 * - `at` (pi's `/clone` and Strata's default): the root→`entryId` path, the entry included;
 * - `before` (pi's `/fork`, from a user message): the root→parent path, and the message's text is returned as
 *   `editorText` to be edited and sent in the new session; a root user message gives an empty session.
 * @throws SessionNotFoundError, EntryNotFoundError, InvalidForkEntryError (`before` on a non-user entry).
 */
export async function forkSession(
  scope: DbScope,
  sessionId: string,
  entryId: string,
  options: { position?: ForkPosition } = {},
): Promise<ForkResult> {
  if (!(await getSession(scope, sessionId))) throw new SessionNotFoundError(sessionId);
  const path = await loadBranch(scope, sessionId, entryId);
  const entry = path[path.length - 1];
  if (!entry || entry.id !== entryId) throw new EntryNotFoundError(entryId);
  if (options.position !== "before")
    return { session: await createBranchedSession(scope, sessionId, entryId) };
  const message = entry.type === "message" ? (entry.message as AgentMessage) : undefined;
  if (message?.role !== "user") throw new InvalidForkEntryError();
  const editorText = textContent((message as AgentMessage & { content: unknown }).content);
  return { session: await createBranchedSession(scope, sessionId, entry.parentId), editorText };
}

/** {@link INVALID_FORK_ENTRY}, as a type the HTTP layer answers with 400. */
export class InvalidForkEntryError extends Error {
  constructor() {
    super(INVALID_FORK_ENTRY);
    this.name = "InvalidForkEntryError";
  }
}

/**
 * pi's tree label edit (`setLabel(entryId, label)` → `appendLabelChange`, pi's `session-manager.ts`): the text is trimmed and an empty
 * one clears the label. Like every pi append, the `label` entry goes under the current leaf, which moves to it.
 * @returns the resolved label afterwards (undefined = none).
 * @throws SessionNotFoundError, EntryNotFoundError.
 */
export async function labelEntry(
  scope: DbScope,
  sessionId: string,
  entryId: string,
  label: string | undefined,
): Promise<{ entryId: string; label?: string; labelEntryId: string }> {
  if (!(await getSession(scope, sessionId))) throw new SessionNotFoundError(sessionId);
  if (!(await entryInSession(scope, sessionId, entryId))) throw new EntryNotFoundError(entryId);
  const text = label?.trim() || undefined;
  const entry = await appendLabel(scope, sessionId, entryId, text);
  return text ? { entryId, label: text, labelEntryId: entry.id } : { entryId, labelEntryId: entry.id };
}

async function entryInSession(scope: DbScope, sessionId: string, entryId: string): Promise<boolean> {
  const rows = await scope.query("SELECT 1 FROM session_entries WHERE session_id = $1 AND id = $2", [
    sessionId,
    entryId,
  ]);
  return rows.length > 0;
}
