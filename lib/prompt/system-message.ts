/**
 * The session's system state as `SystemMessage`s with section patches and tool deltas (pi's
 * `diffSystemPromptSections` and transcript.ts `getCurrentSystemMessage` / `getSystemMessageText`).
 */
import type { Message, SystemMessage, ToolDeclaration } from "@/lib/llm/types";

/**
 * Patch from `previous` to `current`: changed keys in `current`'s order, then `null` for removed keys;
 * `undefined` when nothing changed (pi 3.22).
 */
export function diffSystemPromptSections(
  previous: Record<string, string | null>,
  current: Record<string, string>,
): Record<string, string | null> | undefined {
  const patch: Record<string, string | null> = {};
  let changed = false;
  for (const [k, v] of Object.entries(current)) {
    if (previous[k] !== v) {
      patch[k] = v;
      changed = true;
    }
  }
  for (const k of Object.keys(previous)) {
    if (!(k in current) && previous[k] !== null) {
      patch[k] = null;
      changed = true;
    }
  }
  return changed ? patch : undefined;
}

function textOf(content: SystemMessage["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? [])
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

/**
 * Replay every system message in order into one (pi 3.23): texts joined with a blank line, sections
 * patched by key (null deletes, re-set keeps position, new keys last), tools removed then added by name.
 * `undefined` when there is no system message.
 */
export function getCurrentSystemMessage(messages: readonly { role: string }[]): SystemMessage | undefined {
  const systems = messages.filter((m): m is SystemMessage => m.role === "system");
  if (systems.length === 0) return undefined;
  const texts: string[] = [];
  const sections: Record<string, string> = {};
  const tools = new Map<string, ToolDeclaration>();
  let hasSections = false;
  for (const m of systems) {
    const t = textOf(m.content);
    if (t) texts.push(t);
    for (const [k, v] of Object.entries(m.sections ?? {})) {
      hasSections = true;
      if (v === null) delete sections[k];
      else sections[k] = v;
    }
    for (const r of m.toolsRemoved ?? []) tools.delete(r.name);
    for (const a of m.toolsAdded ?? []) tools.set(a.name, a);
  }
  const result: SystemMessage = {
    role: "system",
    content: texts.join("\n\n"),
    timestamp: systems[0].timestamp,
  };
  if (hasSections) result.sections = sections;
  if (tools.size > 0) result.toolsAdded = [...tools.values()];
  return result;
}

/** Rendered text of a system message: content, then non-null section values, non-empty, joined "\n\n" (pi 3.21). */
export function getSystemMessageText(message: SystemMessage): string {
  return [
    textOf(message.content),
    ...Object.values(message.sections ?? {}).filter((v): v is string => v !== null),
  ]
    .filter((p) => p.length > 0)
    .join("\n\n");
}

/** Tool deltas from declared `before` to `after` by name; a changed definition is removal plus addition (pi 9.3). */
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

/** Keep only provider roles (the default `convertToLlm` of pi's Agent, 9.22). */
export function onlyLlmMessages(messages: readonly { role: string }[]): Message[] {
  return messages.filter((m) => ["system", "user", "assistant", "toolResult"].includes(m.role)) as Message[];
}
