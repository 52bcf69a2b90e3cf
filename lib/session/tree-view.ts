/**
 * A flat, JSON-friendly view of a session tree for navigation UIs (`GET /api/sessions/:id/tree`): one
 * node per entry in pi's `getTree()` order (depth first, children oldest first), each with a short
 * one-line preview of what the entry holds.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { SessionEntry } from "./entries";
import { repairMessage } from "./entry-repair";
import type { SessionTreeNode } from "./tree";

/** One node of {@link sessionTreeView}. */
export interface SessionTreeViewNode {
  id: string;
  parentId: string | null;
  /** Entry type (`message`, `compaction`, `branch_summary`, `model_change`, …). */
  type: string;
  /** Message role for `message` entries (`custom` for `custom_message`). */
  role?: string;
  /** One line, at most {@link PREVIEW_CHARS} characters. */
  preview: string;
  label?: string;
  timestamp: string;
  /** Depth in the tree (roots 0). */
  depth: number;
  childCount: number;
  /** The project commit the entry stands on (its own or its nearest ancestor's; docs/checkpoints.md). */
  commit?: string;
}

/** Characters a preview keeps (an ellipsis marks a cut). */
export const PREVIEW_CHARS = 120;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (block && typeof block === "object") {
      const b = block as { type?: string; text?: unknown };
      if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
      else if (b.type === "image") parts.push("[image]");
    }
  }
  return parts.join(" ");
}

function messagePreview(message: AgentMessage): string {
  switch (message.role) {
    case "user":
    case "custom":
      return textOf(message.content);
    case "assistant": {
      const text = textOf(message.content);
      const calls = (message.content ?? [])
        .filter((b) => b.type === "toolCall")
        .map((b) => (b.type === "toolCall" ? b.name : ""));
      const tools = calls.length > 0 ? `[${calls.join(", ")}]` : "";
      const error =
        message.stopReason === "error" || message.stopReason === "aborted" ? `(${message.stopReason})` : "";
      return [text, tools, error].filter(Boolean).join(" ") || "(empty)";
    }
    case "toolResult":
      return `${message.toolName ?? "(tool)"}${message.isError ? " (error)" : ""}: ${textOf(message.content)}`;
    case "system":
      return `System prompt${message.sections ? `: ${Object.keys(message.sections).join(", ")}` : ""}`;
    case "bashExecution":
      return `$ ${message.command}`;
    case "branchSummary":
    case "compactionSummary":
      return typeof message.summary === "string" ? message.summary : "";
  }
  return "";
}

/** The preview of one entry: its text, tool names, setting or summary, on one line. */
export function entryPreview(entry: SessionEntry): string {
  const e = entry as SessionEntry & Record<string, unknown>;
  switch (entry.type) {
    case "message": {
      const message = repairMessage(e.message).message;
      return oneLine(message ? messagePreview(message) : "(no message)");
    }
    case "custom_message":
      return oneLine(textOf(e.content));
    case "compaction":
      return oneLine(`Compaction: ${String(e.summary ?? "")}`);
    case "branch_summary":
      return oneLine(`Branch summary: ${String(e.summary ?? "")}`);
    case "model_change":
      return oneLine(`Model: ${String(e.provider)}/${String(e.modelId)}`);
    case "thinking_level_change":
      return oneLine(`Thinking: ${String(e.thinkingLevel)}`);
    case "label":
      return oneLine(
        e.label ? `Label ${String(e.targetId)}: ${String(e.label)}` : `Label ${String(e.targetId)} cleared`,
      );
    case "session_info":
      return oneLine(`Name: ${String(e.name ?? "")}`);
    case "context_edit":
      return oneLine(`${e.replacement === null ? "Removed" : "Edited"} ${String(e.targetId)}`);
    case "custom":
      return oneLine(`Custom: ${String(e.customType ?? "")}`);
    default:
      return oneLine(entry.type);
  }
}

function roleOf(entry: SessionEntry): string | undefined {
  if (entry.type === "message") return repairMessage(entry.message).message?.role;
  if (entry.type === "custom_message") return "custom";
  return undefined;
}

/** Flatten `buildSessionTree` roots depth first (children oldest first), iteratively. */
export function sessionTreeView(roots: readonly SessionTreeNode[]): SessionTreeViewNode[] {
  const out: SessionTreeViewNode[] = [];
  const stack: { node: SessionTreeNode; depth: number }[] = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ node: roots[i], depth: 0 });
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const { entry } = node;
    const view: SessionTreeViewNode = {
      id: entry.id,
      parentId: entry.parentId,
      type: entry.type,
      preview: entryPreview(entry),
      timestamp: entry.timestamp,
      depth,
      childCount: node.children.length,
    };
    const role = roleOf(entry);
    if (role) view.role = role;
    if (node.label) view.label = node.label;
    out.push(view);
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i], depth: depth + 1 });
  }
  return out;
}
