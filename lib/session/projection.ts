/**
 * Pure projection of a session branch to the messages the agent sees (pi's `buildSessionContext`,
 * first cut: message, custom_message and settings entries; compaction, branch summaries and
 * context_edit join with the session-tree work).
 */
import type { AgentMessage, CustomMessage } from "@/lib/agent/messages";
import type { ThinkingLevel } from "@/lib/llm/types";
import type { SessionEntry } from "./entries";

/**
 * Root→leaf path. `leafId` null → `[]`; undefined or unknown → the last entry in order; a missing
 * parent ends the walk. Mirrors pi's `buildSessionPath`.
 */
export function buildSessionPath(entries: SessionEntry[], leafId?: string | null): SessionEntry[] {
  if (leafId === null || entries.length === 0) return [];
  const byId = new Map(entries.map((e) => [e.id, e]));
  let current = (leafId !== undefined ? byId.get(leafId) : undefined) ?? entries[entries.length - 1];
  const path: SessionEntry[] = [];
  const seen = new Set<string>();
  while (current && !seen.has(current.id)) {
    path.push(current);
    seen.add(current.id);
    current = current.parentId ? byId.get(current.parentId)! : undefined!;
  }
  return path.reverse();
}

/** Model and thinking level from the whole path (pi's `getSessionContextSettings`). */
export function getSessionContextSettings(path: SessionEntry[]): {
  thinkingLevel: ThinkingLevel;
  model: { provider: string; modelId: string } | null;
} {
  let thinkingLevel: ThinkingLevel = "off";
  let model: { provider: string; modelId: string } | null = null;
  for (const e of path) {
    if (e.type === "thinking_level_change") thinkingLevel = e.thinkingLevel as ThinkingLevel;
    else if (e.type === "model_change")
      model = { provider: e.provider as string, modelId: e.modelId as string };
    else if (e.type === "message") {
      const m = (e as { message: AgentMessage }).message;
      if (m.role === "assistant") model = { provider: m.provider, modelId: m.model };
    }
  }
  return { thinkingLevel, model };
}

/** Messages an entry contributes (pi's `sessionEntryToContextMessages`, for the types handled here). */
export function sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[] {
  if (entry.type === "message") {
    const message = (entry as { message: AgentMessage }).message;
    if ("content" in message && (message.content === null || message.content === undefined)) {
      return [{ ...message, content: message.role === "system" ? "" : [] } as AgentMessage];
    }
    return [message];
  }
  if (entry.type === "custom_message") {
    const e = entry as SessionEntry & {
      customType: string;
      content: CustomMessage["content"] | null;
      display: boolean;
      details?: unknown;
    };
    return [
      {
        role: "custom",
        customType: e.customType,
        content: e.content ?? [],
        display: e.display,
        details: e.details,
        timestamp: Date.parse(e.timestamp),
      },
    ];
  }
  return [];
}

/** The agent messages of a branch path. */
export function buildSessionMessages(path: SessionEntry[]): AgentMessage[] {
  return path.flatMap(sessionEntryToContextMessages);
}
