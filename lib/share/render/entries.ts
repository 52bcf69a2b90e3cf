/**
 * The conversation of a share: its path's entries (`ShareSnapshot.entries`, root first) as HTML that reads like the
 * IDE's chat (components/chat: user and assistant messages, collapsed tool calls with their arguments and result,
 * collapsed thinking, `!command` blocks) with pi's labels for what the chat keeps apart (pi's HTML export:
 * `Switched to model: …`, `[compaction]` `Compacted from N tokens`, `Branch Summary`, `[<customType>]`). Each entry
 * is an element with `id="e<index>"` (the index a redaction site names). Tool results show inside their call;
 * settings-only entries (label, session_info, usage) render nothing of their own — a label tags its target. Total
 * over stored content: malformed fields render as empty, never throw. Pure and edge-safe.
 */
import type { SessionEntry } from "@/lib/session/entries";
import { entryPreview } from "@/lib/session/tree-view";
import { escapeHtml, escapeName, escapeText, markRedactions } from "./escape";
import { renderMarkdown } from "./markdown";
import { bidiWarning, revealPlain, revealsBidi } from "./unicode";

type Block = { type?: unknown; [key: string]: unknown };
type Msg = { role?: unknown; [key: string]: unknown };

const blocksOf = (content: unknown): Block[] =>
  Array.isArray(content) ? content.filter((b): b is Block => !!b && typeof b === "object") : [];

/** The text of a string-or-blocks content (image blocks skipped; they render as images). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return blocksOf(content)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n");
}

const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The image blocks of `content` as inline `data:` images — only png/jpeg/gif/webp with well-formed base64 (an SVG or
 * anything else is named, not shown); `""` when there are none.
 */
export function renderImages(content: unknown): string {
  const images = blocksOf(content).filter((b) => b.type === "image");
  if (images.length === 0) return "";
  const out = images.map((b) => {
    const mime = typeof b.mimeType === "string" ? b.mimeType : "";
    const data = typeof b.data === "string" ? b.data : "";
    if (!IMAGE_TYPE.test(mime) || !BASE64.test(data))
      return `<span class="badge">[image ${escapeName(mime)} not shown]</span>`;
    return `<img class="message-image" alt="Attached image" src="data:${mime};base64,${data}">`;
  });
  return `<div class="message-images">${out.join("")}</div>`;
}

const MAIN_ARG_KEYS = ["path", "file_path", "command", "pattern", "query", "url", "glob", "name"];

/** The argument that identifies a tool call at a glance (as the chat's header shows it), one line, ≤ 80 chars. */
export function toolMainArg(args: unknown, max = 80): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  let value = MAIN_ARG_KEYS.map((k) => a[k]).find((v) => typeof v === "string" && v);
  if (value === undefined) value = Object.values(a).find((v) => typeof v === "string" && v);
  if (typeof value !== "string") return "";
  const oneLine = value.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

interface ResultRef {
  message: Msg;
  index: number;
}

const hasRedaction = (...texts: string[]) => texts.some((t) => t.includes("[redacted:"));
const redactedBadge = '<span class="badge badge-redacted">redacted</span>';

function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value ?? {}, null, 2) ?? "";
  } catch {
    return String(value);
  }
}

/** A tool call and its result, collapsed: name, main argument, status; inside, the arguments and the result. */
function renderToolCall(call: Block, result: ResultRef | undefined): string {
  const name = typeof call.name === "string" ? call.name : "(tool)";
  const status = result ? (result.message.isError === true ? "error" : "done") : "interrupted";
  const label = status === "interrupted" ? "no result" : status;
  const mainArg = toolMainArg(call.arguments);
  const args = prettyJson(call.arguments);
  const resultText = result ? textOf(result.message.content) : "";
  const body = [
    '<div class="tool-section-label">Arguments</div>',
    `<pre class="tool-args">${escapeText(args)}</pre>`,
  ];
  if (result) {
    body.push(
      `<div class="tool-section-label">${status === "error" ? "Error" : "Result"}</div>`,
      `<pre id="e${result.index}" class="${status === "error" ? "tool-result tool-error" : "tool-result"}">${escapeText(resultText || "(empty)")}</pre>`,
      renderImages(result.message.content),
    );
  }
  return [
    `<details class="tool-call status-${status}" data-tool-name="${escapeHtml(revealPlain(name))}">`,
    `<summary><span class="tool-name">${escapeName(name)}</span>`,
    mainArg ? `<span class="tool-arg mono">${escapeText(mainArg)}</span>` : "",
    hasRedaction(args, resultText) ? redactedBadge : "",
    `<span class="tool-status status-${status}">${label}</span></summary>`,
    `<div class="tool-body">${body.join("")}</div></details>`,
  ].join("");
}

function renderAssistant(m: Msg, results: Map<string, ResultRef>): string {
  const parts: string[] = [];
  for (const b of blocksOf(m.content)) {
    if (b.type === "text" && typeof b.text === "string" && b.text.trim()) parts.push(renderMarkdown(b.text));
    else if (b.type === "thinking" && typeof b.thinking === "string" && (b.thinking.trim() || b.redacted)) {
      const text = b.redacted ? "(redacted)" : b.thinking;
      parts.push(
        `<details class="thinking"><summary>Thinking</summary><div class="thinking-text">${escapeText(text)}</div></details>`,
      );
    } else if (b.type === "toolCall" && typeof b.id === "string")
      parts.push(renderToolCall(b, results.get(b.id)));
  }
  const stop = m.stopReason;
  const error = typeof m.errorMessage === "string" && m.errorMessage.trim() ? m.errorMessage.trim() : "";
  if (stop === "aborted")
    parts.push(
      `<div class="stop-marker stop-aborted">${error ? `Aborted: ${escapeText(error)}` : "Aborted"}</div>`,
    );
  else if (stop === "error")
    parts.push(`<div class="stop-marker stop-error">Error: ${escapeText(error || "Unknown error")}</div>`);
  const cls = stop === "error" || stop === "aborted" ? ` stop-${stop}` : "";
  const model = typeof m.model === "string" && m.model ? escapeHtml(revealPlain(m.model)) : "";
  return `<article class="message message-assistant${cls}" aria-label="Assistant"${model ? ` data-model="${model}"` : ""}>${parts.join("")}</article>`;
}

function renderShell(m: Msg): string {
  const output = typeof m.output === "string" ? m.output : "";
  const exit = typeof m.exitCode === "number" ? m.exitCode : undefined;
  const state = m.cancelled ? "cancelled" : exit !== undefined && exit !== 0 ? "failed" : "ok";
  const status = m.cancelled ? "cancelled" : exit === undefined ? "no exit code" : `exit ${exit}`;
  return [
    `<article class="message message-shell shell-${state}" aria-label="Shell command">`,
    `<header class="shell-header"><code class="shell-command"><span class="shell-prompt" aria-hidden="true">$ </span>${escapeText(m.command)}</code>`,
    m.excludeFromContext ? '<span class="badge">excluded from context</span>' : "",
    m.truncated ? '<span class="badge badge-warn">truncated</span>' : "",
    `<span class="shell-status shell-status-${state}">${status}</span></header>`,
    `<pre class="shell-output">${escapeText(output || "(no output)")}</pre></article>`,
  ].join("");
}

function renderSystem(m: Msg, head: boolean): string {
  const sections =
    m.sections && typeof m.sections === "object" ? (m.sections as Record<string, unknown>) : {};
  const parts = [
    textOf(m.content),
    ...Object.values(sections).filter((v): v is string => typeof v === "string"),
  ];
  const text = parts.filter((p) => p.length > 0).join("\n\n");
  const tools = Array.isArray(m.toolsAdded)
    ? m.toolsAdded.map((t) => (t && typeof t.name === "string" ? t.name : "")).filter(Boolean)
    : [];
  return [
    `<article class="message message-meta message-system"><details><summary>${head ? "System prompt" : "System prompt updated"}</summary>`,
    text ? `<pre class="system-text">${escapeText(text)}</pre>` : '<p class="muted">No prompt text.</p>',
    tools.length > 0
      ? `<p class="muted">${head ? "Tools" : "Tools added"}: ${escapeName(tools.join(", "))}</p>`
      : "",
    "</details></article>",
  ].join("");
}

/** A one-line marker of the conversation (model change, thinking level, checkpoint, …). */
const metaLine = (cls: string, html: string) => `<div class="meta-line ${cls}">${html}</div>`;

function renderMessage(m: Msg, results: Map<string, ResultRef>, callIds: Set<string>, head: boolean): string {
  switch (m.role) {
    case "user":
      return `<article class="message message-user" aria-label="You">${renderMarkdown(textOf(m.content))}${renderImages(m.content)}</article>`;
    case "assistant":
      return renderAssistant(m, results);
    case "toolResult": {
      if (typeof m.toolCallId === "string" && callIds.has(m.toolCallId)) return "";
      const error = m.isError === true;
      const name = typeof m.toolName === "string" ? m.toolName : "(tool)";
      return `<article class="message message-tool"><details class="tool-call status-${error ? "error" : "done"}"><summary><span class="tool-name">${escapeName(name)}</span><span class="tool-status status-${error ? "error" : "done"}">${error ? "error" : "result"}</span></summary><pre class="${error ? "tool-result tool-error" : "tool-result"}">${escapeText(textOf(m.content))}</pre></details></article>`;
    }
    case "bashExecution":
      return renderShell(m);
    case "system":
      return renderSystem(m, head);
    default:
      return "";
  }
}

/** One entry's HTML without its anchor wrapper; `""` for an entry that shows nothing. */
function renderEntry(
  entry: SessionEntry,
  results: Map<string, ResultRef>,
  callIds: Set<string>,
  systemHead: { seen: boolean },
): string {
  const e = entry as SessionEntry & Record<string, unknown>;
  switch (entry.type) {
    case "message": {
      const m = (e.message && typeof e.message === "object" ? e.message : {}) as Msg;
      const head = m.role === "system" && !systemHead.seen;
      if (m.role === "system") systemHead.seen = true;
      return renderMessage(m, results, callIds, head);
    }
    case "model_change":
      return metaLine(
        "model-change",
        `Switched to model: <span class="model-name">${escapeName(e.provider)}/${escapeName(e.modelId)}</span>`,
      );
    case "thinking_level_change":
      return metaLine("thinking-change", `Thinking level: ${escapeName(e.thinkingLevel)}`);
    case "compaction": {
      const tokens = typeof e.tokensBefore === "number" ? e.tokensBefore.toLocaleString("en-US") : "?";
      return `<article class="message message-meta compaction"><details><summary><span class="meta-tag">[compaction]</span> Compacted from ${tokens} tokens</summary>${renderMarkdown(e.summary)}</details></article>`;
    }
    case "branch_summary":
      return `<article class="message message-meta branch-summary"><details><summary>Branch Summary</summary>${renderMarkdown(e.summary)}</details></article>`;
    case "custom_message":
      if (e.display !== true) return "";
      return `<article class="message message-meta custom-message"><div class="meta-tag">[${escapeName(e.customType)}]</div>${renderMarkdown(textOf(e.content))}${renderImages(e.content)}</article>`;
    case "custom":
      return metaLine("custom", escapeText(entryPreview(entry)));
    case "context_edit":
      return metaLine(
        "context-edit",
        e.replacement === null
          ? "An earlier message was removed from the model's context on this branch"
          : "An earlier message was edited in the model's context on this branch",
      );
    case "label":
    case "session_info":
    case "usage":
      return "";
    default:
      return metaLine("unknown", `Entry of type ${escapeName(entry.type)}`);
  }
}

/**
 * The entries as HTML, one `<div class="entry" id="e<i>">` per entry that shows something (label tags appended),
 * tool results inside their calls (their result `<pre>` carries the `e<i>` id). Bidi controls and invisible
 * characters show as `<U+…>` escapes (`unicode.ts`); an entry showing a bidi control starts with the bidi warning.
 */
export function renderEntries(entries: readonly SessionEntry[]): string {
  const results = new Map<string, ResultRef>();
  const callIds = new Set<string>();
  const labels = new Map<string, string>();
  entries.forEach((entry, index) => {
    const e = entry as SessionEntry & Record<string, unknown>;
    if (entry.type === "label" && typeof e.targetId === "string") {
      if (typeof e.label === "string" && e.label) labels.set(e.targetId, e.label);
      else labels.delete(e.targetId);
    }
    if (entry.type !== "message" || !e.message || typeof e.message !== "object") return;
    const m = e.message as Msg;
    if (m.role === "toolResult" && typeof m.toolCallId === "string")
      results.set(m.toolCallId, { message: m, index });
    if (m.role === "assistant")
      for (const b of blocksOf(m.content))
        if (b.type === "toolCall" && typeof b.id === "string") callIds.add(b.id);
  });
  const systemHead = { seen: false };
  const out: string[] = [];
  entries.forEach((entry, index) => {
    const html = renderEntry(entry, results, callIds, systemHead);
    if (!html) return;
    const label = labels.get(entry.id);
    const tag = label
      ? `<div class="entry-label"><span class="badge badge-label">${markRedactions(escapeName(label))}</span></div>`
      : "";
    // A bidi control shown anywhere in the entry (inside a collapsed tool call too): the warning stays in sight.
    const warning = revealsBidi(html) ? bidiWarning("message") : "";
    out.push(`<div class="entry" id="e${index}">${tag}${warning}${html}</div>`);
  });
  return out.join("\n");
}
