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
  /** When the label was set (the `label` entry's timestamp). */
  labelTimestamp?: string;
  /**
   * An assistant message with no text that ended normally (`stop`/`toolUse`): only tool calls. pi's tree hides
   * these in every filter mode unless it is the leaf.
   */
  toolCallsOnly?: true;
  /** For a tool result: its call as pi's tree shows it (`[read: src/a.ts]`, `[bash: ls -la]`). */
  tool?: string;
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

/** `Files restored (commit abc1234)` / `Reverted a.txt, b.txt (commit abc1234)` for a `strata.checkpoint` entry. */
function checkpointPreview(data: unknown): string {
  const d = (data ?? {}) as { kind?: unknown; commit?: unknown; paths?: unknown };
  const commit = typeof d.commit === "string" ? ` (commit ${d.commit.slice(0, 7)})` : "";
  if (d.kind === "revert") {
    const paths = Array.isArray(d.paths) ? d.paths.filter((p) => typeof p === "string").join(", ") : "";
    return `Reverted ${paths || "files"}${commit}`;
  }
  return `Files restored${commit}`;
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
      // Strata's file-state records (docs/checkpoints.md) in words; other extensions' entries by their type.
      if (e.customType === "strata.checkpoint") return oneLine(checkpointPreview(e.data));
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

/** pi's tree rendering of a tool call (`formatToolCall`, without its home-directory shortening). */
export function formatToolCall(name: string, args: Record<string, unknown>): string {
  const path = () => String(args.path || args.file_path || "");
  switch (name) {
    case "read": {
      const offset = typeof args.offset === "number" ? args.offset : undefined;
      const limit = typeof args.limit === "number" ? args.limit : undefined;
      let shown = path();
      if (offset !== undefined || limit !== undefined) {
        const start = offset ?? 1;
        const end = limit !== undefined ? start + limit - 1 : "";
        shown += `:${start}${end ? `-${end}` : ""}`;
      }
      return `[read: ${shown}]`;
    }
    case "write":
    case "edit":
      return `[${name}: ${path()}]`;
    case "bash": {
      const raw = String(args.command || "");
      const cmd = raw
        .replace(/[\n\t]/g, " ")
        .trim()
        .slice(0, 50);
      return `[bash: ${cmd}${raw.length > 50 ? "..." : ""}]`;
    }
    case "grep":
      return `[grep: /${String(args.pattern || "")}/ in ${String(args.path || ".")}]`;
    case "find":
      return `[find: ${String(args.pattern || "")} in ${String(args.path || ".")}]`;
    case "ls":
      return `[ls: ${String(args.path || ".")}]`;
    default: {
      const json = JSON.stringify(args) ?? "";
      return `[${name}: ${json.slice(0, 40)}${json.length > 40 ? "..." : ""}]`;
    }
  }
}

/** An assistant message whose content has no non-blank text and that ended with `stop` or `toolUse`. */
function isToolCallsOnly(message: AgentMessage): boolean {
  if (message.role !== "assistant") return false;
  const hasText = (message.content ?? []).some(
    (b) => b?.type === "text" && typeof b.text === "string" && b.text.trim().length > 0,
  );
  const stop = message.stopReason;
  return !hasText && !(stop && stop !== "stop" && stop !== "toolUse");
}

/**
 * Flatten `buildSessionTree` roots depth first (children oldest first), iteratively; tool results carry their
 * call as pi shows it (calls are indexed as they are passed: a call precedes its result on every path).
 */
export function sessionTreeView(roots: readonly SessionTreeNode[]): SessionTreeViewNode[] {
  const calls = new Map<string, string>();
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
    const message = entry.type === "message" ? repairMessage(entry.message).message : undefined;
    const role = message ? message.role : roleOf(entry);
    if (role) view.role = role;
    if (node.label) view.label = node.label;
    if (node.label && node.labelTimestamp) view.labelTimestamp = node.labelTimestamp;
    if (message?.role === "assistant") {
      if (isToolCallsOnly(message)) view.toolCallsOnly = true;
      for (const b of message.content ?? [])
        if (b?.type === "toolCall" && typeof b.id === "string")
          calls.set(b.id, formatToolCall(String(b.name), (b.arguments ?? {}) as Record<string, unknown>));
    } else if (message?.role === "toolResult") {
      view.tool = calls.get(message.toolCallId) ?? `[${message.toolName ?? "tool"}]`;
    }
    out.push(view);
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i], depth: depth + 1 });
  }
  return out;
}
