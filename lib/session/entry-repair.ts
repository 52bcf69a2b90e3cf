/**
 * Entries that would poison a session: what a session file may not contain (refused on import) and what is
 * repaired (on import, and again on every read of rows stored before these checks existed), so that no stored
 * entry can break a page, the tree view or a prompt.
 *
 * Refused (the file is not imported at all): an entry whose `id` is not a non-empty string, whose `parentId`
 * is neither a string nor null, whose `type` is not a string, and a `message` entry without a message object
 * or with a non-string `role`. These are the fields the store, the tree and every reader key on.
 *
 * Repaired (kept, with a diagnostic): content parts that are not objects with a string `type` (`null` parts
 * included), known parts whose fields have the wrong type (a `text` part without string text, a `thinking` part
 * without string thinking, an `image` without string data/mimeType, a `toolCall` without string id/name) are
 * dropped; a `toolCall` whose `arguments` is not an object gets `{}`; content that is neither a string, an
 * array nor null becomes pi's empty content (`""` for system, `[]` otherwise; null/missing content stays as it
 * is, pi normalises it when loading, pi's `transform-messages.ts`); an assistant message whose `usage` is not an object (a string, a
 * number) gets zero usage; assistant or tool result content given as a string becomes one text part.
 *
 * A compaction whose `summary` is not a string gets `""` (every reader builds the summary message from it).
 *
 * Tolerated as pi tolerates them (kept as stored, so the file exports byte for byte; defaulted when read by
 * {@link normalizeMessage}): missing timestamps, a missing, null or incomplete `usage`, a missing `stopReason`,
 * `api`, `provider` or `model`, null or missing content. Unknown part types and unknown roles are kept (newer pi
 * versions add them; readers skip them).
 *
 * Pure, edge-safe. Valid messages are returned as the same object (pi's `transform-messages.ts`: valid content is not copied).
 */
import type { AgentMessage } from "@/lib/agent/messages";
import { emptyUsage, type Usage } from "@/lib/llm/types";
import { jsonValueTooDeep, MAX_JSON_DEPTH } from "@/lib/text/json-depth";

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A short description of a JSON value for messages: `null`, `a number`, `an array`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Why a content part must be dropped, or undefined when it is usable. */
function partProblem(part: unknown): string | undefined {
  if (!isObject(part)) return `is ${describeValue(part)}`;
  if (typeof part.type !== "string") return `has no string "type"`;
  switch (part.type) {
    case "text":
      return typeof part.text === "string" ? undefined : `(text) has ${describeValue(part.text)} as "text"`;
    case "thinking":
      return typeof part.thinking === "string"
        ? undefined
        : `(thinking) has ${describeValue(part.thinking)} as "thinking"`;
    case "image":
      return typeof part.data === "string" && typeof part.mimeType === "string"
        ? undefined
        : `(image) needs string "data" and "mimeType"`;
    case "toolCall":
      return typeof part.id === "string" && typeof part.name === "string"
        ? undefined
        : `(toolCall) needs string "id" and "name"`;
    default:
      return undefined;
  }
}

/**
 * Repair a content value (see the module comment). `where` names it in the notes (`message.content`).
 * @returns the content (the same value when nothing changed) and one note per repair, e.g.
 *   `message.content[1] is null; dropped`.
 */
export function repairContent(
  content: unknown,
  where: string,
  empty: "" | [],
): { content: unknown; notes: string[] } {
  if (content === null || content === undefined || typeof content === "string") return { content, notes: [] };
  if (!Array.isArray(content))
    return {
      content: empty === "" ? "" : [],
      notes: [`${where} is ${describeValue(content)}; replaced with ${empty === "" ? '""' : "[]"}`],
    };
  const notes: string[] = [];
  let out: unknown[] | undefined;
  content.forEach((part, i) => {
    const problem = partProblem(part);
    if (problem) {
      notes.push(`${where}[${i}] ${problem}; dropped`);
      out ??= content.slice(0, i);
      return;
    }
    const p = part as Obj;
    if (p.type === "toolCall" && !isObject(p.arguments)) {
      notes.push(
        `${where}[${i}] (toolCall) has ${describeValue(p.arguments)} as "arguments"; replaced with {}`,
      );
      out ??= content.slice(0, i);
      out.push({ ...p, arguments: {} });
      return;
    }
    out?.push(part);
  });
  return { content: out ?? content, notes };
}

function isUsage(v: unknown): boolean {
  if (!isObject(v) || !isObject(v.cost)) return false;
  const nums = (o: Obj, keys: string[]) => keys.every((k) => typeof o[k] === "number");
  return (
    nums(v, ["input", "output", "cacheRead", "cacheWrite", "totalTokens"]) &&
    nums(v.cost, ["input", "output", "cacheRead", "cacheWrite", "total"])
  );
}

/**
 * Repair one AgentMessage (see the module comment). `where` prefixes the notes (`message`).
 * @returns `{ message }` (the same object when nothing changed) and the repair notes; `message` is undefined
 *   when the value cannot be a message (not an object, `role` not a string, or nested more than 64 levels within its entry) — `problem` then says why.
 */
export function repairMessage(
  value: unknown,
  where = "message",
): { message?: AgentMessage; notes: string[]; problem?: string } {
  if (!isObject(value))
    return { notes: [], problem: `"${where}" must be an object (got ${describeValue(value)})` };
  if (typeof value.role !== "string")
    return { notes: [], problem: `"${where}.role" must be a string (got ${describeValue(value.role)})` };
  // Rows stored before imports checked nesting: recursive readers (stringify, the provider) would overflow.
  if (jsonValueTooDeep(value, MAX_JSON_DEPTH - 1))
    return {
      notes: [],
      problem: `"${where}" is nested more than ${MAX_JSON_DEPTH} levels deep in its entry`,
    };
  const notes: string[] = [];
  let out: Obj = value;
  if ("content" in value) {
    const fixed = repairContent(value.content, `${where}.content`, value.role === "system" ? "" : []);
    if (fixed.notes.length > 0) {
      notes.push(...fixed.notes);
      out = { ...out, content: fixed.content };
    }
  }
  if ((value.role === "assistant" || value.role === "toolResult") && typeof out.content === "string") {
    notes.push(`${where}.content is a string; wrapped in a text part`);
    out = { ...out, content: [{ type: "text", text: out.content }] };
  }
  // Missing usage (or null, or an object short of fields) is pi's: kept as stored, defaulted when read
  // (`normalizeMessage`). Only a usage that is not an object at all is broken content.
  if (value.role === "assistant" && value.usage != null && !isObject(value.usage)) {
    notes.push(`${where}.usage is not pi's usage object; replaced with zero usage`);
    out = { ...out, usage: emptyUsage() };
  }
  return { message: out as unknown as AgentMessage, notes };
}

/** `usage` with every count pi's readers add up as a number: missing or non-numeric ones become 0. */
function usageWithDefaults(usage: unknown): Usage {
  if (isUsage(usage)) return usage as Usage;
  const u = isObject(usage) ? usage : {};
  const c = isObject(u.cost) ? u.cost : {};
  const n = (o: Obj, k: string) => (typeof o[k] === "number" ? (o[k] as number) : 0);
  return {
    ...u,
    input: n(u, "input"),
    output: n(u, "output"),
    cacheRead: n(u, "cacheRead"),
    cacheWrite: n(u, "cacheWrite"),
    totalTokens: n(u, "totalTokens"),
    cost: {
      ...c,
      input: n(c, "input"),
      output: n(c, "output"),
      cacheRead: n(c, "cacheRead"),
      cacheWrite: n(c, "cacheWrite"),
      total: n(c, "total"),
    },
  } as Usage;
}

/**
 * A stored message as every reader gets it (the projection, branch summaries): {@link repairMessage}, then the
 * defaults of what pi writes but tolerates missing (pi's `transform-messages.ts` and its readers): null or missing content → `""`
 * for system, `[]` for user, assistant, tool results and custom messages; a bash execution's missing or
 * non-string `command` / `output` → `""` (pi's readers would throw on `.length`); an assistant's missing, null or incomplete `usage` →
 * the same counts with 0 for what is missing (pi's compaction skips an assistant without usage; a zero usage is
 * skipped the same way, `calculateContextTokens` = 0). Timestamps, `stopReason`, `api`/`provider`/`model` stay
 * missing, as in pi (no reader needs them). The stored entry is not changed (export stays byte for byte).
 * @returns the message (the same object when nothing was missing), or undefined when it cannot be a message.
 */
export function normalizeMessage(value: unknown): AgentMessage | undefined {
  const repaired = repairMessage(value).message;
  if (!repaired) return undefined;
  const m = repaired as unknown as Obj;
  let out: Obj = m;
  if (m.content == null) {
    if (m.role === "system") out = { ...out, content: "" };
    else if (m.role === "user" || m.role === "assistant" || m.role === "toolResult" || m.role === "custom")
      out = { ...out, content: [] };
  }
  if (m.role === "assistant" && !isUsage(m.usage)) out = { ...out, usage: usageWithDefaults(m.usage) };
  // A bash execution's text is built from both (the context, token estimates, summaries): a missing one is "".
  if (m.role === "bashExecution")
    for (const key of ["command", "output"] as const)
      if (typeof m[key] !== "string") out = { ...out, [key]: "" };
  return out as unknown as AgentMessage;
}

/** Result of {@link checkEntry}. */
export interface EntryCheck {
  /** Why the entry cannot be stored (the file is refused), or undefined. */
  problem?: string;
  /** The entry to store: the same object when nothing was repaired. */
  entry: Obj;
  /** One note per repair. */
  notes: string[];
}

/**
 * Check one parsed (and migrated) session entry: refuse what the store and readers key on, repair content.
 * @returns `{ problem }` for a refused entry (e.g. `"id" must be a non-empty string (got null)`; an entry nested
 *   more than 64 levels deep, checked without recursion), otherwise the
 *   entry to store and the repair notes.
 */
export function checkEntry(entry: Obj): EntryCheck {
  const refuse = (problem: string): EntryCheck => ({ problem, entry, notes: [] });
  if (jsonValueTooDeep(entry))
    return refuse(`the entry is nested more than ${MAX_JSON_DEPTH} levels deep (the limit)`);
  if (typeof entry.id !== "string" || entry.id === "")
    return refuse(
      `"id" must be a non-empty string (got ${entry.id === "" ? "an empty string" : describeValue(entry.id)}); every entry needs a unique id`,
    );
  if (entry.parentId !== null && typeof entry.parentId !== "string")
    return refuse(`"parentId" must be a string or null (got ${describeValue(entry.parentId)})`);
  if (typeof entry.type !== "string")
    return refuse(`"type" must be a string (got ${describeValue(entry.type)})`);
  if (entry.type === "message") {
    const fixed = repairMessage(entry.message);
    if (!fixed.message) return refuse(`a message entry needs a message: ${fixed.problem}`);
    return fixed.notes.length > 0
      ? { entry: { ...entry, message: fixed.message }, notes: fixed.notes }
      : { entry, notes: [] };
  }
  if (entry.type === "custom_message") {
    const fixed = repairContent(entry.content, "content", []);
    return fixed.notes.length > 0
      ? { entry: { ...entry, content: fixed.content }, notes: fixed.notes }
      : { entry, notes: [] };
  }
  if (entry.type === "compaction" && typeof entry.summary !== "string") {
    // Every reader builds the summary message's text from it (pi's estimate would throw on `.length`).
    const fixed = checkEntry({ ...entry, summary: "" });
    return {
      entry: fixed.entry,
      notes: [`"summary" is ${describeValue(entry.summary)}; replaced with ""`, ...fixed.notes],
    };
  }
  if (entry.type === "compaction" && entry.systemMessage !== undefined) {
    const fixed = repairMessage(entry.systemMessage, "systemMessage");
    if (!fixed.message)
      return { entry: { ...entry, systemMessage: undefined }, notes: [`${fixed.problem}; dropped`] };
    return fixed.notes.length > 0
      ? { entry: { ...entry, systemMessage: fixed.message }, notes: fixed.notes }
      : { entry, notes: [] };
  }
  if (entry.type === "context_edit" && isObject(entry.replacement)) {
    const fixed = repairContent(entry.replacement.content, "replacement.content", []);
    return fixed.notes.length > 0
      ? {
          entry: { ...entry, replacement: { ...entry.replacement, content: fixed.content } },
          notes: fixed.notes,
        }
      : { entry, notes: [] };
  }
  return { entry, notes: [] };
}

/**
 * What reading `entries` repairs or leaves out (rows stored before these checks), for the client to show:
 * `[{ entryId, message }]`, e.g. `{ entryId: "b1", message: "message.content[0] is null; dropped" }`; an entry
 * that cannot be read at all is reported as `"<problem>; left out"`. Empty for clean entries.
 */
export function entryRepairs(entries: readonly object[]): { entryId: string; message: string }[] {
  const out: { entryId: string; message: string }[] = [];
  for (const value of entries) {
    const entry = value as Obj;
    const check = checkEntry(entry);
    const entryId = typeof entry.id === "string" ? entry.id : "";
    if (check.problem) out.push({ entryId, message: `${check.problem}; left out` });
    for (const message of check.notes) out.push({ entryId, message });
  }
  return out;
}
