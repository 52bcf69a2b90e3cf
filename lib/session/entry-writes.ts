/**
 * The session tree's other writes (pi's `SessionManager`): moving the leaf (`branch`, `resetLeaf`,
 * `branchWithSummary`), labels, session info, context edits, compactions, and reading the tree.
 */

import type { AgentMessage } from "@/lib/agent/messages";
import type { DbScope } from "@/lib/db/client";
import type { Usage } from "@/lib/llm/types";
import { getCurrentSystemMessage } from "@/lib/prompt/system-message";
import { appendWith, entryExists, onBranch } from "./append";
import {
  type CompactionPreparation,
  type CompactionSettings,
  prepareCompaction,
} from "./compaction/compaction";
import { contextQuery, loadAllEntries, loadContextPath } from "./context-load";
import type { CompactionEntry, ContextEditEntry, SessionEntry } from "./entries";
import { SessionNotFoundError } from "./errors";
import { getUnansweredToolCalls, projectPath } from "./projection";
import { CompactionPendingError, getSession } from "./session-row";
import { buildSessionTree, type SessionTreeNode, sanitizeSessionName } from "./tree";

/**
 * pi `branch(id)` (pi's `session-manager.ts`): move the leaf to an existing entry; the next append starts a new branch there.
 * @throws Error `Entry <id> not found`.
 */
export async function branch(scope: DbScope, sessionId: string, entryId: string): Promise<void> {
  await scope.transaction(async (q) => {
    if (!(await entryExists(q, sessionId, entryId))) throw new Error(`Entry ${entryId} not found`);
    await q("UPDATE sessions SET leaf_id = $2, updated_at = now() WHERE id = $1", [sessionId, entryId]);
  });
}

/** pi `resetLeaf()` (pi's `session-manager.ts`): leaf = null, so the next entry is a new root. */
export async function resetLeaf(scope: DbScope, sessionId: string): Promise<void> {
  await scope.query("UPDATE sessions SET leaf_id = NULL, updated_at = now() WHERE id = $1", [sessionId]);
}

/**
 * pi `branchWithSummary(fromEntryId, summary, details?, fromHook?, usage?)` (pi's `session-manager.ts`): append a
 * `branch_summary` with `parentId = fromEntryId` (null = a new root) and `fromId` = the previous leaf
 * (`"root"` when it was null); the leaf moves to the new entry.
 * @throws Error `Entry <id> not found`.
 */
export async function branchWithSummary(
  scope: DbScope,
  sessionId: string,
  fromEntryId: string | null,
  summary: string,
  extra: { details?: unknown; usage?: Usage; fromHook?: boolean } = {},
): Promise<SessionEntry> {
  return appendWith(scope, sessionId, async ({ q, leafId }) => {
    if (fromEntryId !== null && !(await entryExists(q, sessionId, fromEntryId)))
      throw new Error(`Entry ${fromEntryId} not found`);
    return {
      type: "branch_summary",
      parentId: fromEntryId,
      fields: {
        fromId: leafId ?? "root",
        summary,
        details: extra.details,
        usage: extra.usage,
        fromHook: extra.fromHook,
      },
    };
  });
}

/**
 * pi `appendLabelChange(targetId, label)` (pi's `session-manager.ts`): a `label` entry; empty/undefined clears the label.
 * @throws Error `Entry <id> not found`.
 */
export async function appendLabel(
  scope: DbScope,
  sessionId: string,
  targetId: string,
  label: string | undefined,
): Promise<SessionEntry> {
  return appendWith(scope, sessionId, async ({ q }) => {
    if (!(await entryExists(q, sessionId, targetId))) throw new Error(`Entry ${targetId} not found`);
    return { type: "label", fields: { targetId, label } };
  });
}

/**
 * pi `appendSessionInfo(name)` (pi's `session-manager.ts`): a `session_info` entry with CR/LF runs replaced by a space and
 * trimmed; the session title follows a non-empty name, in the same transaction (both or neither are stored).
 */
export async function appendSessionInfo(
  scope: DbScope,
  sessionId: string,
  name: string,
): Promise<SessionEntry> {
  const sanitized = sanitizeSessionName(name);
  // The title is set in the append's transaction: when the entry cannot be stored, the title is not changed, and
  // when the title cannot be, no entry is left behind.
  return appendWith(scope, sessionId, async ({ q }) => {
    if (sanitized)
      await q("UPDATE sessions SET title = $2, updated_at = now() WHERE id = $1", [sessionId, sanitized]);
    return { type: "session_info", fields: { name: sanitized } };
  });
}

/**
 * pi `appendContextEdit(targetId, replacement)` (pi's `session-manager.ts`). Assistant/toolResult string replacements are
 * stored as `[{type:"text", text}]`.
 * @throws Error `Context edit replacement must be null or contain string/array content`,
 *   `Entry <id> not found`, `Entry <id> is not on the active branch`,
 *   `Entry <id> does not contribute editable model content` (checked in that order).
 */
export async function appendContextEdit(
  scope: DbScope,
  sessionId: string,
  targetId: string,
  replacement: { content: unknown } | null,
): Promise<SessionEntry> {
  if (
    replacement !== null &&
    (typeof replacement !== "object" ||
      !("content" in replacement) ||
      (typeof replacement.content !== "string" && !Array.isArray(replacement.content)))
  ) {
    throw new Error("Context edit replacement must be null or contain string/array content");
  }
  return appendWith(scope, sessionId, async ({ q, leafId }) => {
    const target = await entryExists(q, sessionId, targetId);
    if (!target) throw new Error(`Entry ${targetId} not found`);
    if (!(await onBranch(q, sessionId, leafId, targetId)))
      throw new Error(`Entry ${targetId} is not on the active branch`);
    const role =
      target.type === "message"
        ? (target.message as AgentMessage).role
        : target.type === "custom_message"
          ? "custom"
          : undefined;
    if (
      !(target.type === "custom_message" || role === "user" || role === "assistant" || role === "toolResult")
    )
      throw new Error(`Entry ${targetId} does not contribute editable model content`);
    const normalized: ContextEditEntry["replacement"] =
      replacement !== null &&
      (role === "assistant" || role === "toolResult") &&
      typeof replacement.content === "string"
        ? { content: [{ type: "text", text: replacement.content }] }
        : (replacement as ContextEditEntry["replacement"]);
    return { type: "context_edit", fields: { targetId, replacement: normalized } };
  });
}

/**
 * pi `appendCompaction(summary, firstKeptEntryId, tokensBefore, details?, fromHook?, usage?)` (pi's `session-manager.ts`):
 * `firstKeptEntryId` null = the entry's own id (keep nothing); `systemMessage` = the replayed current
 * system message of the current projection, stamped with the compaction time (omitted when none).
 *
 * Strata's contract (not pi's): refused with `CompactionPendingError` while tool calls of the branch's
 * newest assistant message are unanswered — store their results, then call again. So a compaction
 * entry never sits between a tool call and its result.
 */
export async function appendCompaction(
  scope: DbScope,
  sessionId: string,
  input: {
    summary: string;
    firstKeptEntryId: string | null;
    tokensBefore: number;
    details?: unknown;
    fromHook?: boolean;
    usage?: Usage;
  },
  options: { expectedLeaf?: string | null; now?: Date } = {},
): Promise<CompactionEntry> {
  const entry = await appendWith(
    scope,
    sessionId,
    async ({ q, leafId, timestamp }) => {
      const { path, settings } =
        leafId === null ? { path: [], settings: undefined } : await contextQuery(q, sessionId, leafId);
      const pending = getUnansweredToolCalls(path);
      if (pending.length > 0) throw new CompactionPendingError(pending);
      const current = getCurrentSystemMessage(projectPath(path, settings).messages);
      return {
        type: "compaction",
        fields: {
          summary: input.summary,
          firstKeptEntryId: input.firstKeptEntryId ?? undefined,
          tokensBefore: input.tokensBefore,
          details: input.details,
          usage: input.usage,
          fromHook: input.fromHook,
          systemMessage: current ? { ...current, timestamp: new Date(timestamp).getTime() } : undefined,
        },
        selfField: input.firstKeptEntryId === null ? "firstKeptEntryId" : undefined,
      };
    },
    options,
  );
  return entry as CompactionEntry;
}

/** `prepareSessionCompaction` result: retry after the tool results (`pending`), nothing to do, or ready. */
export type SessionCompactionPlan =
  | { status: "pending"; toolCallIds: string[] }
  | { status: "nothing" }
  | { status: "ready"; leafId: string; preparation: CompactionPreparation };

/**
 * Plan a compaction of the session's current branch (pi `prepareCompaction` over the entries the
 * projection reads). The contract with `appendCompaction`: while the newest assistant message has
 * unanswered tool calls the plan is `pending` — run the tools, store their results, then plan again;
 * `ready` carries the leaf it was planned on, to pass as `expectedLeaf` when appending the result.
 */
export async function prepareSessionCompaction(
  scope: DbScope,
  sessionId: string,
  settings: CompactionSettings,
): Promise<SessionCompactionPlan> {
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  if (session.leafId === null) return { status: "nothing" };
  const { path } = await loadContextPath(scope, sessionId, session.leafId);
  const pending = getUnansweredToolCalls(path);
  if (pending.length > 0) return { status: "pending", toolCallIds: pending };
  const preparation = prepareCompaction(path, settings);
  return preparation ? { status: "ready", leafId: session.leafId, preparation } : { status: "nothing" };
}

/**
 * pi `getTree()` (pi's `session-manager.ts`) for a stored session: roots (null/self parent, orphans), children oldest first,
 * labels resolved. Reads every entry of the session.
 */
export async function getTree(scope: DbScope, sessionId: string): Promise<SessionTreeNode[]> {
  return buildSessionTree(await loadAllEntries(scope, sessionId));
}
