/**
 * Pure helpers of the context inspector: one-line summaries of messages, the labels of transform changes, the
 * filter every layer shares, and number formats. No React, no fetch (unit-tested in
 * tests/unit/inspector/view-model.test.ts).
 */
/** The fields of a transform change a line shows (a `TransformChange` of lib/llm/transform-report.ts). */
export interface ChangeLike {
  kind: string;
  reason: string;
  messageIndex: number | null;
  blockIndex?: number;
  from?: string;
  to?: string;
  count?: number;
}

/** A person's name for each `TransformChangeKind` (lib/llm/transform-report.ts); unknown kinds show as they are. */
export const CHANGE_KIND_LABEL: Record<string, string> = {
  content_normalized: "Content normalised",
  image_replaced: "Images replaced",
  image_dropped: "Empty image dropped",
  thinking_to_text: "Thinking sent as text",
  thinking_dropped: "Thinking dropped",
  signature_dropped: "Signature dropped",
  tool_call_id_rewritten: "Tool-call id rewritten",
  turn_skipped: "Turn skipped",
  synthetic_result_inserted: "Synthetic result inserted",
  message_moved: "System message moved",
  result_dropped: "Tool result dropped",
  blank_text_removed: "Blank text removed",
  block_dropped: "Unsupported part dropped",
  tool_name_filled: "Tool name filled",
  message_dropped: "Message dropped",
  surrogates_replaced: "Surrogates replaced",
};

/** The label of a change kind. */
export function changeLabel(kind: string): string {
  return CHANGE_KIND_LABEL[kind] ?? kind;
}

/**
 * One line per change, as the inspector lists it: `<label> (<count>) · <where> — <reason>` and, for a rewritten id,
 * ` · <from> → <to>`. `where` is `request message #i` (the transform's input; `block #b` when a block) or `inserted`.
 * @example changeLine({ kind: "signature_dropped", reason: "from another model", messageIndex: 1, blockIndex: 0 })
 *   // "Signature dropped · request message #1, block #0 — from another model"
 */
export function changeLine(change: ChangeLike): string {
  const count = change.count !== undefined && change.count !== 1 ? ` (${change.count})` : "";
  const where =
    change.messageIndex === null
      ? "inserted"
      : `request message #${change.messageIndex}${change.blockIndex !== undefined ? `, block #${change.blockIndex}` : ""}`;
  const ids =
    change.from !== undefined || change.to !== undefined
      ? ` · ${change.from ?? "?"} → ${change.to ?? "?"}`
      : "";
  return `${changeLabel(change.kind)}${count} · ${where} — ${change.reason}${ids}`;
}

type Block = { type?: string; text?: string; thinking?: string; name?: string; mimeType?: string };

const clip = (s: string, n = 90) => {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** A short description of a content array or string: text (clipped), then `[2 images]`, `[thinking]`, `[call read]`. */
function describeContent(content: unknown): string {
  if (typeof content === "string") return clip(content);
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  const text = (content as Block[])
    .filter((b) => b.type === "text")
    .map((b) => b.text ?? "")
    .join(" ");
  if (text.trim()) parts.push(clip(text));
  const images = (content as Block[]).filter((b) => b.type === "image").length;
  if (images) parts.push(`[${images} image${images === 1 ? "" : "s"}]`);
  const thinking = (content as Block[]).filter((b) => b.type === "thinking").length;
  if (thinking) parts.push("[thinking]");
  for (const b of content as Block[]) if (b.type === "toolCall") parts.push(`[call ${b.name ?? "?"}]`);
  return parts.join(" ");
}

/** `role: what it holds` for an agent or LLM message, one line. */
export function messageSummary(message: unknown): { role: string; text: string } {
  const m = (message ?? {}) as Record<string, unknown>;
  const role = typeof m.role === "string" ? m.role : "?";
  switch (role) {
    case "toolResult":
      return {
        role,
        text: `${String(m.toolName ?? "?")} ${String(m.toolCallId ?? "")}${m.isError ? " (error)" : ""}: ${describeContent(m.content)}`,
      };
    case "assistant": {
      const stop = m.stopReason && m.stopReason !== "stop" ? ` (${String(m.stopReason)})` : "";
      return {
        role,
        text: `${String(m.provider ?? "?")}/${String(m.model ?? "?")}${stop}: ${describeContent(m.content)}`,
      };
    }
    case "bashExecution":
      return { role, text: `$ ${clip(String(m.command ?? ""))}` };
    case "branchSummary":
    case "compactionSummary":
      return { role, text: clip(String(m.summary ?? "")) };
    case "custom":
      return { role, text: `${String(m.customType ?? "")}: ${describeContent(m.content)}` };
    case "system": {
      const sections = m.sections ? Object.keys(m.sections as object).join(", ") : "";
      const tools = Array.isArray(m.toolsAdded) ? ` +${m.toolsAdded.length} tools` : "";
      return { role, text: `${sections ? `sections: ${sections}` : describeContent(m.content)}${tools}` };
    }
    default:
      return { role, text: describeContent(m.content) };
  }
}

/** The text a filter looks in for a value: its JSON (strings unquoted do not matter: a substring match). */
export function searchableText(...values: unknown[]): string {
  return values
    .map((v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? "")))
    .join("\n")
    .toLowerCase();
}

/** Whether `text` (already lower-cased, see {@link searchableText}) matches the filter `query` (case-insensitive; blank matches all). */
export function matchesFilter(query: string, text: string): boolean {
  const q = query.trim().toLowerCase();
  return q === "" || text.includes(q);
}

/** `12,345` tokens. */
export function formatTokens(n: number): string {
  return n.toLocaleString("en-US");
}

/** US$ with enough digits for a cheap turn: `$0.0012`, `$1.25`. */
export function formatUsd(n: number): string {
  if (n === 0) return "$0";
  if (Math.abs(n) < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(2)}`;
}

/** The request messages' indexes into the LLM messages: request message i is LLM message `out[i]` (system messages are not in the request). */
export function requestToLlmIndexes(llmMessages: readonly { role: string }[]): number[] {
  const out: number[] = [];
  llmMessages.forEach((m, i) => {
    if (m.role !== "system") out.push(i);
  });
  return out;
}
