/** Pure helpers for showing agent messages. */
import type { AgentMessage } from "@/lib/agent/messages";
import type { ImageContent, TextContent, ToolResultMessage } from "@/lib/llm/types";

/**
 * The text of a string-or-blocks content (images become "[image <mimeType>]"). Total: null/missing content, null
 * or malformed parts and non-string texts are skipped, never thrown on.
 */
export function contentText(content: string | (TextContent | ImageContent)[] | null | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content as unknown[]) {
    if (!b || typeof b !== "object") continue;
    const block = b as { type?: unknown; text?: unknown; mimeType?: unknown };
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "image")
      parts.push(`[image ${typeof block.mimeType === "string" ? block.mimeType : ""}]`);
  }
  return parts.join("\n");
}

/** The usable blocks of a message's content: an array without null or type-less parts (`[]` for anything else). */
export function contentBlocks<T extends { type: string }>(
  content: readonly T[] | string | null | undefined,
): T[] {
  if (!Array.isArray(content)) return [];
  return content.filter(
    (b): b is T => !!b && typeof b === "object" && typeof (b as { type?: unknown }).type === "string",
  );
}

const MAIN_ARG_KEYS = ["path", "file_path", "command", "pattern", "query", "url", "glob", "name"];

/** The argument that identifies a tool call at a glance: its path, command, pattern, … */
export function toolMainArg(args: unknown, max = 80): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  let value: unknown;
  for (const key of MAIN_ARG_KEYS) {
    if (typeof a[key] === "string" && a[key]) {
      value = a[key];
      break;
    }
  }
  if (value === undefined) value = Object.values(a).find((v) => typeof v === "string" && v);
  if (typeof value !== "string") return "";
  const oneLine = value.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** The text of a tool result: a ToolResultMessage, or the `result` of `tool_execution_end`. */
export function toolResultText(result: unknown): string {
  if (result === undefined || result === null) return "";
  if (typeof result === "string") return result;
  if (typeof result === "object" && "content" in result) {
    const content = (result as { content: unknown }).content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return contentText(content as (TextContent | ImageContent)[]);
  }
  try {
    return JSON.stringify(result, null, 2);
  } catch {
    return String(result);
  }
}

/** Tool results by tool call id, and the ids of calls that appear in assistant messages. */
export function indexToolResults(messages: AgentMessage[]): {
  results: Map<string, ToolResultMessage>;
  callIds: Set<string>;
} {
  const results = new Map<string, ToolResultMessage>();
  const callIds = new Set<string>();
  for (const m of messages) {
    if (m.role === "toolResult") results.set(m.toolCallId, m);
    else if (m.role === "assistant") {
      for (const b of contentBlocks(m.content)) if (b.type === "toolCall") callIds.add(b.id);
    }
  }
  return { results, callIds };
}
