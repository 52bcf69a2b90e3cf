/** Entry builders for session unit tests (pi-shaped, fixed timestamps). */
import type { AgentMessage } from "@/lib/agent/messages";
import { emptyUsage } from "@/lib/llm/types";
import type { SessionEntry } from "@/lib/session/entries";

export const T0 = Date.parse("2026-01-01T00:00:00.000Z");
export const ts = (n: number) => new Date(T0 + n * 1000).toISOString();

let clock = 0;
export function resetClock(): void {
  clock = 0;
}

export function msg(id: string, parentId: string | null, message: AgentMessage): SessionEntry {
  clock++;
  return { type: "message", id, parentId, timestamp: ts(clock), message };
}

export const user = (text: string, t = 1): AgentMessage => ({ role: "user", content: text, timestamp: t });
export const assistant = (text: string, extra: Partial<AgentMessage> = {}): AgentMessage =>
  ({
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-a",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 2,
    ...extra,
  }) as AgentMessage;
export const toolCallMsg = (
  callId: string,
  name = "read",
  args: Record<string, unknown> = { path: "a.ts" },
) =>
  assistant("", {
    content: [{ type: "toolCall", id: callId, name, arguments: args }],
    stopReason: "toolUse",
  } as Partial<AgentMessage>);
export const toolResult = (callId: string, text: string, name = "read"): AgentMessage => ({
  role: "toolResult",
  toolCallId: callId,
  toolName: name,
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 3,
});
export const system = (sections: Record<string, string | null>, t = 0): AgentMessage => ({
  role: "system",
  content: "",
  sections,
  timestamp: t,
});

export function entry(
  type: string,
  id: string,
  parentId: string | null,
  fields: Record<string, unknown> = {},
): SessionEntry {
  clock++;
  return { type, id, parentId, timestamp: ts(clock), ...fields } as SessionEntry;
}

/** A linear chain: each entry's parentId = the previous one's id. */
export function chain(...items: ((parent: string | null) => SessionEntry)[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (const make of items) out.push(make(out[out.length - 1]?.id ?? null));
  return out;
}
