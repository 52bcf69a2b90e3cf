/**
 * The session's system state as `SystemMessage`s with section patches and tool deltas (pi-ai
 * `utils/transcript.ts` and `utils/text.ts`: `getCurrentSystemMessage`, `getCurrentTools`,
 * `getSystemMessageText`, `renderSystemMessageUpdate`, `collapseSystemMessages`, `normalizeContext`).
 */
import type { Message, SystemMessage, ToolDeclaration } from "@/lib/llm/types";

/** Any message list; only `role: "system"` entries are read. */
export type TranscriptMessages = readonly { role: string }[];

function isSystem(m: { role: string }): m is SystemMessage {
  return m.role === "system";
}

/** Text of message content: a string as is, or the text blocks joined with `"\n"` (pi `contentText`). */
export function contentText(content: SystemMessage["content"] | undefined | null, separator = "\n"): string {
  if (typeof content === "string") return content;
  return (content ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join(separator);
}

/** Tools after every delta in order: per message `toolsRemoved` then `toolsAdded`, by name (pi `getCurrentTools`). */
export function getCurrentTools(messages: TranscriptMessages): ToolDeclaration[] {
  const tools = new Map<string, ToolDeclaration>();
  for (const m of messages) {
    if (!isSystem(m)) continue;
    for (const t of m.toolsRemoved ?? []) tools.delete(t.name);
    for (const t of m.toolsAdded ?? []) tools.set(t.name, t);
  }
  return [...tools.values()];
}

/**
 * Replay every system message into one (pi `getCurrentSystemMessage`, pi's `system-prompt.ts`): non-empty texts joined with
 * `"\n\n"`; sections patched by key (`null` deletes; a re-set key keeps its position; new keys go last);
 * tools per {@link getCurrentTools}; `timestamp` of the first system message. `undefined` when there is
 * no system message and no tool.
 */
export function getCurrentSystemMessage(messages: TranscriptMessages): SystemMessage | undefined {
  const content: string[] = [];
  const sections = new Map<string, string>();
  let timestamp: number | undefined;
  for (const m of messages) {
    if (!isSystem(m)) continue;
    timestamp ??= m.timestamp;
    const text = contentText(m.content);
    if (text.length > 0) content.push(text);
    for (const [name, value] of Object.entries(m.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/**
 * A system message as a full prompt (pi `getSystemMessageText`, pi's `system-prompt.ts`): its text, then each non-null
 * section value in key order, empty parts dropped, joined with `"\n\n"`.
 */
export function getSystemMessageText(message: Pick<SystemMessage, "content" | "sections">): string {
  const parts = [contentText(message.content)];
  for (const text of Object.values(message.sections ?? {})) if (text !== null) parts.push(text);
  return parts.filter((p) => p.length > 0).join("\n\n");
}

/** The current prompt text after replay (pi `getCurrentSystemPrompt`); `""` when none. */
export function getCurrentSystemPrompt(messages: TranscriptMessages): string {
  const m = getCurrentSystemMessage(messages);
  return m ? getSystemMessageText(m) : "";
}

/**
 * A later system message sent in place (pi `renderSystemMessageUpdate`, pi's `system-prompt.ts`): its text (if any), then per
 * section `Updated system prompt section "<name>":\n\n<value>` or `Removed system prompt section "<name>".`,
 * joined with `"\n\n"`.
 */
export function renderSystemMessageUpdate(message: Pick<SystemMessage, "content" | "sections">): string {
  const parts: string[] = [];
  const text = contentText(message.content);
  if (text.length > 0) parts.push(text);
  for (const [name, value] of Object.entries(message.sections ?? {})) {
    parts.push(
      value === null
        ? `Removed system prompt section "${name}".`
        : `Updated system prompt section "${name}":\n\n${value}`,
    );
  }
  return parts.join("\n\n");
}

/**
 * For APIs without mid-conversation system messages (pi `collapseSystemMessages`, pi's `system-prompt.ts`): every system
 * message is removed and the replayed head ({@link getCurrentSystemMessage}) is put first.
 */
export function collapseSystemMessages<M extends { role: string }>(context: {
  messages: readonly M[];
}): { messages: (M | SystemMessage)[] } {
  const head = getCurrentSystemMessage(context.messages);
  const rest = context.messages.filter((m) => m.role !== "system");
  return { messages: head ? [head, ...rest] : rest };
}

/**
 * Fold `systemPrompt` and `tools` into a leading system message (pi `normalizeContext`, pi's `system-prompt.ts`):
 * `{ role: "system", content: systemPrompt ?? "", toolsAdded?: tools, timestamp: 0 }` unless both are
 * empty, in which case `messages` are returned unchanged.
 */
export function normalizeContext<M extends { role: string }>(context: {
  systemPrompt?: string;
  tools?: ToolDeclaration[];
  messages: M[];
}): { messages: (M | SystemMessage)[] } {
  const hasPrompt = context.systemPrompt !== undefined && context.systemPrompt.length > 0;
  const hasTools = context.tools !== undefined && context.tools.length > 0;
  if (!hasPrompt && !hasTools) return { messages: context.messages };
  const head: SystemMessage = {
    role: "system",
    content: context.systemPrompt ?? "",
    ...(hasTools ? { toolsAdded: context.tools } : {}),
    timestamp: 0,
  };
  return { messages: [head, ...context.messages] };
}

/**
 * Tool deltas from `before` to `after` by name (pi `getToolStateChanges`): a changed definition is a
 * removal plus an addition. Keys are omitted when empty.
 */
export function diffTools(
  before: ToolDeclaration[],
  after: ToolDeclaration[],
): { toolsAdded?: ToolDeclaration[]; toolsRemoved?: { name: string }[] } {
  const prev = new Map(before.map((t) => [t.name, JSON.stringify(t)]));
  const next = new Map(after.map((t) => [t.name, JSON.stringify(t)]));
  const removed = [...prev.keys()]
    .filter((n) => !next.has(n) || next.get(n) !== prev.get(n))
    .map((name) => ({ name }));
  const added = after.filter((t) => prev.get(t.name) !== next.get(t.name));
  return {
    ...(added.length > 0 ? { toolsAdded: added } : {}),
    ...(removed.length > 0 ? { toolsRemoved: removed } : {}),
  };
}

/** Keep only provider roles (the default `convertToLlm` of pi's Agent, pi's `agent-loop.ts`). */
export function onlyLlmMessages(messages: readonly { role: string }[]): Message[] {
  return messages.filter((m) => ["system", "user", "assistant", "toolResult"].includes(m.role)) as Message[];
}
