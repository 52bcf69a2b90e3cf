/**
 * Session entries in pi's JSONL format (`packages/coding-agent/src/core/session-manager.ts`): every line
 * but the header has `type`, `id` (8 lowercase hex), `parentId` (null for a root) and an ISO `timestamp`.
 * Field names, optionality and key order follow pi exactly (pi's `session-manager.ts`); zod schemas for the
 * same shapes are in `./schema.ts`.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { ImageContent, SystemMessage, TextContent, ThinkingLevel, Usage } from "@/lib/llm/types";

/** pi's current session file version. */
export const CURRENT_SESSION_VERSION = 3;

/** pi's `session-manager.ts`: the first line of a session file. `version` missing = v1. */
export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  /** ISO-8601. */
  timestamp: string;
  /** Absolute cwd. */
  cwd: string;
  /** Session this one was forked/branched from (a pi file path, or a Strata session id). */
  parentSession?: string;
}

/** Fields every entry line has (16, common entry fields). */
export interface EntryBase {
  type: string;
  id: string;
  parentId: string | null;
  /** ISO-8601, e.g. "2026-01-01T00:00:00.000Z". */
  timestamp: string;
}

/** pi's `session-manager.ts` */
export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}

/** pi's `session-manager.ts` */
export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

/** pi's `session-manager.ts` */
export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: ThinkingLevel;
}

/** pi's `session-manager.ts`: model-attributed usage outside the context. */
export interface UsageEntry extends EntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** pi's `session-manager.ts` */
export interface CompactionEntry<T = unknown> extends EntryBase {
  type: "compaction";
  summary: string;
  /** First entry kept before the compaction; equal to `id` = keep nothing. */
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: T;
  usage?: Usage;
  fromHook?: boolean;
  /** The replayed current system message when the compaction was made (pi's `session-manager.ts`). */
  systemMessage?: SystemMessage;
}

/** pi's `session-manager.ts` */
export interface BranchSummaryEntry<T = unknown> extends EntryBase {
  type: "branch_summary";
  /** Leaf the user came back from, or "root". */
  fromId: string;
  summary: string;
  details?: T;
  usage?: Usage;
  fromHook?: boolean;
}

/** pi's `session-manager.ts`: extension state, never in context. */
export interface CustomEntry<T = unknown> extends EntryBase {
  type: "custom";
  customType: string;
  data?: T;
}

/** pi's `session-manager.ts`: extension message, in context as a user message. */
export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
}

/** pi's `session-manager.ts`: branch-local edit of an earlier entry's content; `null` omits the target. */
export interface ContextEditEntry extends EntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: string | unknown[] } | null;
}

/** pi's `session-manager.ts`: absent/empty `label` clears. */
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

/** pi's `session-manager.ts` */
export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name?: string;
}

/** Every entry type Strata interprets. */
export type KnownEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | UsageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | ContextEditEntry
  | LabelEntry
  | SessionInfoEntry;

/** Any entry; unknown types from newer pi versions are kept as they are. */
export type SessionEntry = KnownEntry | (EntryBase & Record<string, unknown>);

/** An entry before the store assigns `id`, `parentId` and `timestamp`. */
export type NewEntry =
  | (Omit<MessageEntry, keyof EntryBase | "type"> & { type: "message" })
  | (Omit<ModelChangeEntry, keyof EntryBase | "type"> & { type: "model_change" })
  | (Omit<ThinkingLevelChangeEntry, keyof EntryBase | "type"> & { type: "thinking_level_change" })
  | (Omit<UsageEntry, keyof EntryBase | "type"> & { type: "usage" })
  | (Omit<CustomEntry, keyof EntryBase | "type"> & { type: "custom" })
  | (Omit<CustomMessageEntry, keyof EntryBase | "type"> & { type: "custom_message" });

/**
 * A new entry id: the first 8 hex chars of a random UUID, unique among `taken`; the full UUID after
 * 100 collisions. Mirrors pi's `generateId` in session-manager.ts.
 */
export function generateEntryId(taken: (id: string) => boolean): string {
  for (let i = 0; i < 100; i++) {
    const id = crypto.randomUUID().slice(0, 8);
    if (!taken(id)) return id;
  }
  return crypto.randomUUID();
}
