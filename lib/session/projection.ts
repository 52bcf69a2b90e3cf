/**
 * Pure projection of a session tree to the messages the agent sees — pi's `buildSessionPath`,
 * `getSessionContextSettings`, `sessionEntryToContextMessages`, `buildContextEntries`,
 * `buildSessionProjection` and `buildSessionContext` (session-manager.ts; pi's `session-manager.ts`, pi's `transform-messages.ts`).
 */
import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from "@/lib/agent/messages";
import type { ThinkingLevel } from "@/lib/llm/types";
import type { CompactionEntry, ContextEditEntry, SessionEntry } from "./entries";
import { normalizeMessage, repairContent, repairMessage } from "./entry-repair";

/** Model reference as pi stores it in settings. */
export interface SessionModelRef {
  provider: string;
  modelId: string;
}

/** Settings recovered from the whole branch (pi's `session-manager.ts`). */
export interface SessionContextSettings {
  /** Last `thinking_level_change`, default "off". */
  thinkingLevel: ThinkingLevel;
  /** Last `model_change` or assistant message's provider/model; null if none. */
  model: SessionModelRef | null;
}

/** `buildSessionContext` result (pi's `SessionContext`). */
export interface SessionContext extends SessionContextSettings {
  messages: AgentMessage[];
}

/** One context entry and the messages it contributes after compaction and context edits. */
export interface ProjectedEntry {
  sourceEntry: SessionEntry;
  messages: AgentMessage[];
}

/** `buildSessionProjection` result. */
export interface SessionProjection extends SessionContext {
  entries: ProjectedEntry[];
}

/**
 * Root→leaf path (pi's `session-manager.ts`). `leafId` null → `[]`; a known id → that entry; undefined or unknown →
 * the last entry in order; a missing parent ends the walk (pi's `session-manager.ts`). A parent cycle also ends it.
 * Mirrors pi's `buildSessionPath`.
 */
export function buildSessionPath(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  if (leafId === null) return [];
  const index = byId ?? new Map(entries.map((e) => [e.id, e]));
  let current: SessionEntry | undefined =
    (leafId ? index.get(leafId) : undefined) ?? entries[entries.length - 1];
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  while (current && !seen.has(current.id)) {
    path.push(current);
    seen.add(current.id);
    current = current.parentId ? index.get(current.parentId) : undefined;
  }
  return path.reverse();
}

/** `{ provider, modelId }` when both are strings, else null (the reference names no model). */
function modelRefOf(provider: unknown, modelId: unknown): SessionModelRef | null {
  return typeof provider === "string" && typeof modelId === "string" ? { provider, modelId } : null;
}

/**
 * Model and thinking level from the whole path, compaction notwithstanding (pi's `session-manager.ts`). Mirrors pi; where pi would
 * carry `undefined` (a `model_change` or assistant message without string provider/model, a
 * `thinking_level_change` without a string level) the setting is null / `"off"`, as the store's derived
 * columns read it: pi then finds no such model and uses its default, as Strata does for null.
 */
export function getSessionContextSettings(path: readonly SessionEntry[]): SessionContextSettings {
  let thinkingLevel: ThinkingLevel = "off";
  let model: SessionModelRef | null = null;
  for (const e of path) {
    if (e.type === "thinking_level_change")
      thinkingLevel = typeof e.thinkingLevel === "string" ? (e.thinkingLevel as ThinkingLevel) : "off";
    else if (e.type === "model_change") model = modelRefOf(e.provider, e.modelId);
    else if (e.type === "message") {
      const m = e.message as AgentMessage | null | undefined;
      if (m?.role === "assistant") model = modelRefOf(m.provider, m.model);
    }
  }
  return { thinkingLevel, model };
}

/**
 * Messages one entry contributes (pi's `session-manager.ts` and `transform-messages.ts`): `message` → its message (null/missing content
 * → `""` for system, `[]` for user/assistant/toolResult; valid content untouched); `custom_message` →
 * a custom message (null content → `[]`, timestamp = `Date.parse(entry.timestamp)`); `branch_summary`
 * with non-empty summary → branchSummary; `compaction` → `[systemMessage?, compactionSummary]`;
 * everything else (settings, usage, custom, label, session_info, context_edit, unknown types) → `[]`.
 * Mirrors pi's `sessionEntryToContextMessages`.
 */
export function sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message": {
      // Rows stored before import checks may hold broken content: repaired here, so no reader sees it; what
      // pi tolerates missing (content, usage) gets its default.
      const message = normalizeMessage(entry.message);
      return message ? [message] : [];
    }
    case "custom_message": {
      const e = entry as SessionEntry & {
        customType: string;
        content?: CustomMessage["content"] | null;
        display: boolean;
        details?: unknown;
      };
      const custom: CustomMessage = {
        role: "custom",
        customType: e.customType,
        content: (repairContent(e.content, "content", []).content ?? []) as CustomMessage["content"],
        display: e.display,
        details: e.details,
        timestamp: new Date(e.timestamp).getTime(),
      };
      return [custom];
    }
    case "branch_summary": {
      const e = entry as SessionEntry & { summary?: string; fromId: string };
      if (!e.summary) return [];
      const m: BranchSummaryMessage = {
        role: "branchSummary",
        summary: e.summary,
        fromId: e.fromId,
        timestamp: new Date(e.timestamp).getTime(),
      };
      return [m];
    }
    case "compaction": {
      const e = entry as CompactionEntry;
      const summary: CompactionSummaryMessage = {
        role: "compactionSummary",
        summary: e.summary,
        tokensBefore: e.tokensBefore,
        timestamp: new Date(e.timestamp).getTime(),
      };
      const system = e.systemMessage ? normalizeMessage(e.systemMessage) : undefined;
      return system ? [system, summary] : [summary];
    }
    default:
      return [];
  }
}

/**
 * The context entries of a root→leaf path (pi's `session-manager.ts`): without a compaction, the path; otherwise the
 * **latest** compaction, then the entries from its `firstKeptEntryId` up to it (system `message`
 * entries excluded — the compaction's snapshot supersedes them), then everything after it. An unknown
 * `firstKeptEntryId` (or the compaction's own id) keeps nothing before the compaction.
 */
export function contextEntriesOfPath(path: readonly SessionEntry[]): SessionEntry[] {
  let compactionIdx = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i].type === "compaction") {
      compactionIdx = i;
      break;
    }
  }
  if (compactionIdx < 0) return [...path];
  const compaction = path[compactionIdx] as CompactionEntry;
  const out: SessionEntry[] = [compaction];
  let found = false;
  for (let i = 0; i < compactionIdx; i++) {
    const e = path[i];
    if (e.id === compaction.firstKeptEntryId) found = true;
    if (found && !(e.type === "message" && (e.message as AgentMessage).role === "system")) out.push(e);
  }
  for (let i = compactionIdx + 1; i < path.length; i++) out.push(path[i]);
  return out;
}

/** pi's `buildContextEntries`: `contextEntriesOfPath(buildSessionPath(entries, leafId))`. */
export function buildContextEntries(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  return contextEntriesOfPath(buildSessionPath(entries, leafId, byId));
}

/**
 * Messages of `entry` after its context edit (pi's `session-manager.ts`): `replacement: null` → none; otherwise each
 * user/assistant/toolResult/custom message keeps every field but `content`; a string replacement
 * becomes `[{type:"text", text}]` for assistant and toolResult, and stays a string otherwise.
 * Mirrors pi's `projectContextEntry`.
 */
export function projectContextEntry(entry: SessionEntry, edit?: ContextEditEntry): AgentMessage[] {
  const messages = sessionEntryToContextMessages(entry);
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  if (typeof replacement !== "object" || Array.isArray(replacement)) return messages;
  const replaced = repairContent(replacement.content, "replacement.content", []).content ?? [];
  return messages.map((message) => {
    if (
      message.role !== "user" &&
      message.role !== "assistant" &&
      message.role !== "toolResult" &&
      message.role !== "custom"
    ) {
      return message;
    }
    const content =
      (message.role === "assistant" || message.role === "toolResult") && typeof replaced === "string"
        ? [{ type: "text", text: replaced }]
        : replaced;
    return { ...message, content } as AgentMessage;
  });
}

/**
 * Project a root→leaf path (or its suffix starting at or before the latest compaction's first kept
 * entry — the store loads only that much): context entries, branch-local edits (last edit per target
 * in path order wins; an edit or target outside the context entries does nothing), and
 * older compactions inside the kept range contribute nothing (pi's `session-manager.ts`). `settings` overrides the settings
 * read from `path` (the store passes the settings of the full branch).
 */
export function projectPath(
  path: readonly SessionEntry[],
  settings?: SessionContextSettings,
): SessionProjection {
  const { thinkingLevel, model } = settings ?? getSessionContextSettings(path);
  const contextEntries = contextEntriesOfPath(path);
  const edits = new Map<string, ContextEditEntry>();
  for (const e of contextEntries)
    if (e.type === "context_edit") edits.set(e.targetId as string, e as ContextEditEntry);
  const entries = contextEntries.map((sourceEntry, index) => ({
    sourceEntry,
    messages:
      sourceEntry.type === "compaction" && index > 0
        ? []
        : projectContextEntry(sourceEntry, edits.get(sourceEntry.id)),
  }));
  return { entries, messages: entries.flatMap((e) => e.messages), thinkingLevel, model };
}

/** pi's `buildSessionProjection(entries, leafId)`. */
export function buildSessionProjection(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionProjection {
  return projectPath(buildSessionPath(entries, leafId, byId));
}

/** pi's `buildSessionContext(entries, leafId)` → `{ messages, thinkingLevel, model }`. */
export function buildSessionContext(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionContext {
  const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId);
  return { messages, thinkingLevel, model };
}

/** The agent messages of a root→leaf path (compaction- and edit-aware; = `buildSessionContext(path).messages`). */
export function buildSessionMessages(path: readonly SessionEntry[]): AgentMessage[] {
  return projectPath(path).messages;
}

/**
 * Tool call ids of the newest assistant message on `path` that have no toolResult entry after it —
 * non-empty while a tool batch is running. A later non-tool message, or an aborted/error assistant
 * message (its calls are never executed), closes the batch. Strata refuses to compact while this is
 * non-empty (see docs/pi-differences.md).
 */
export function getUnansweredToolCalls(path: readonly SessionEntry[]): string[] {
  const answered = new Set<string>();
  for (let i = path.length - 1; i >= 0; i--) {
    const e = path[i];
    if (e.type !== "message") continue;
    const m = repairMessage(e.message).message;
    if (!m) return [];
    if (m.role === "toolResult") answered.add(m.toolCallId);
    else if (m.role !== "assistant") return [];
    else {
      if (m.stopReason === "aborted" || m.stopReason === "error") return [];
      return (m.content ?? [])
        .filter((b) => b.type === "toolCall")
        .map((b) => (b as { id: string }).id)
        .filter((id) => !answered.has(id));
    }
  }
  return [];
}
