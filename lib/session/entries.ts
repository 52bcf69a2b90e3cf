/**
 * Session entries in pi's JSONL format (`packages/coding-agent/src/core/session-manager.ts`): every line
 * but the header has `type`, `id` (8 lowercase hex), `parentId` (null for a root) and an ISO `timestamp`.
 * This issue covers the entry types a coding run writes; the full set arrives with the session-tree work.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { ThinkingLevel } from "@/lib/llm/types";

export interface EntryBase {
  type: string;
  id: string;
  parentId: string | null;
  /** ISO-8601, e.g. "2026-01-01T00:00:00.000Z". */
  timestamp: string;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: ThinkingLevel;
}

export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | unknown[];
  display: boolean;
  details?: unknown;
}

/** Any entry; unknown types from newer pi versions are kept as they are. */
export type SessionEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CustomMessageEntry
  | (EntryBase & Record<string, unknown>);

/** An entry before the store assigns `id`, `parentId` and `timestamp`. */
export type NewEntry =
  | (Omit<MessageEntry, keyof EntryBase | "type"> & { type: "message" })
  | (Omit<ModelChangeEntry, keyof EntryBase | "type"> & { type: "model_change" })
  | (Omit<ThinkingLevelChangeEntry, keyof EntryBase | "type"> & { type: "thinking_level_change" });

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
