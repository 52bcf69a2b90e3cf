/**
 * Shared helpers of compaction and branch summarization (pi's `core/compaction/utils.ts` and the
 * summary framing of `core/messages.ts`): file-operation tracking, the coding-agent → LLM message
 * conversion used before serialising, the conversation serialiser and the summarizer system prompt.
 */
import type { AgentMessage, BashExecutionMessage } from "@/lib/agent/messages";
import type { Message, TextContent } from "@/lib/llm/types";

/** Text before a compaction summary in context (pi `COMPACTION_SUMMARY_PREFIX`, pi's `compaction/compaction.ts`). */
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
/** Text after a compaction summary (pi `COMPACTION_SUMMARY_SUFFIX`). */
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
/** Text before a branch summary in context (pi `BRANCH_SUMMARY_PREFIX`). */
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
/** Text after a branch summary (pi `BRANCH_SUMMARY_SUFFIX`; no leading newline, as in pi). */
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** System prompt of every summarization request (pi `SUMMARIZATION_SYSTEM_PROMPT`, pi's `compaction/compaction.ts`). */
export const SUMMARIZATION_SYSTEM_PROMPT =
  "You are a context summarization assistant. Your task is to read a conversation between a user and an AI assistant, then produce a structured summary following the exact format specified.\n\nDo NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the structured summary.";

/** Tool-call paths seen while summarizing. */
export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

/** Empty `FileOperations` (pi `createFileOps`). */
export function createFileOps(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Record `path` arguments of an assistant message's `read`/`write`/`edit` tool calls (pi `extractFileOpsFromMessage`). */
export function extractFileOpsFromMessage(message: AgentMessage, fileOps: FileOperations): void {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const block of message.content) {
    if (typeof block !== "object" || block === null || block.type !== "toolCall") continue;
    const args = block.arguments as Record<string, unknown> | undefined;
    const path = args && typeof args.path === "string" ? args.path : undefined;
    if (!path) continue;
    if (block.name === "read") fileOps.read.add(path);
    else if (block.name === "write") fileOps.written.add(path);
    else if (block.name === "edit") fileOps.edited.add(path);
  }
}

/** Sorted read-only files (read and never modified) and modified files (pi `computeFileLists`, pi's `compaction/compaction.ts`). */
export function computeFileLists(fileOps: FileOperations): { readFiles: string[]; modifiedFiles: string[] } {
  const modified = new Set([...fileOps.edited, ...fileOps.written]);
  const readFiles = [...fileOps.read].filter((f) => !modified.has(f)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/**
 * `\n\n<read-files>\n…\n</read-files>\n\n<modified-files>\n…\n</modified-files>`, each block only when
 * non-empty; `""` when both are (pi `formatFileOperations`, pi's `compaction/compaction.ts`).
 */
export function formatFileOperations(readFiles: string[], modifiedFiles: string[]): string {
  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0)
    sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}

/** Text of string-or-block content: text blocks joined by `separator` (pi-ai `contentText`). */
export function contentText(
  content: string | readonly { type: string; text?: string }[] | null | undefined,
  separator = "\n",
): string {
  if (typeof content === "string") return content;
  return (content ?? [])
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join(separator);
}

/** pi's `bashExecutionToText` (messages.ts). */
export function bashExecutionToText(msg: BashExecutionMessage): string {
  let text = `Ran \`${msg.command}\`\n`;
  text += msg.output ? `\`\`\`\n${msg.output}\n\`\`\`` : "(no output)";
  if (msg.cancelled) text += "\n\n(command cancelled)";
  else if (msg.exitCode !== null && msg.exitCode !== undefined && msg.exitCode !== 0)
    text += `\n\nCommand exited with code ${msg.exitCode}`;
  if (msg.truncated && msg.fullOutputPath)
    text += `\n\n[Output truncated. Full output: ${msg.fullOutputPath}]`;
  return text;
}

/**
 * Coding-agent messages → LLM messages (pi's `convertToLlm` in messages.ts, catalog 12): bashExecution
 * → user text (dropped when `excludeFromContext`), custom → user, branchSummary / compactionSummary →
 * user text wrapped in their prefix/suffix; system/user/assistant/toolResult unchanged.
 */
export function convertToLlm(messages: readonly AgentMessage[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "bashExecution":
        if (!m.excludeFromContext)
          out.push({
            role: "user",
            content: [{ type: "text", text: bashExecutionToText(m) }],
            timestamp: m.timestamp,
          });
        break;
      case "custom":
        out.push({
          role: "user",
          content: typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content,
          timestamp: m.timestamp,
        });
        break;
      case "branchSummary":
        out.push({
          role: "user",
          content: [{ type: "text", text: BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX }],
          timestamp: m.timestamp,
        });
        break;
      case "compactionSummary":
        out.push({
          role: "user",
          content: [
            { type: "text", text: COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX },
          ],
          timestamp: m.timestamp,
        });
        break;
      default:
        out.push(m);
    }
  }
  return out;
}

/** Characters a serialized tool result keeps (pi `TOOL_RESULT_MAX_CHARS`). */
export const TOOL_RESULT_MAX_CHARS = 2000;

function truncateForSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

/**
 * LLM messages → summarization text (pi `serializeConversation`, pi's `compaction/compaction.ts`): parts joined by `"\n\n"`:
 * `[User]: …` (text blocks joined with ""), `[Assistant thinking]: …`, `[Assistant]: …` (text joined
 * with "\n"), `[Assistant tool calls]: name(k=<json>, …); …`, `[Tool result]: …` truncated to 2000
 * chars. System messages and empty parts are skipped.
 */
export function serializeConversation(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const msg of messages) {
    if (msg.role === "user") {
      const content = contentText(msg.content, "");
      if (content) parts.push(`[User]: ${content}`);
    } else if (msg.role === "assistant") {
      const thinking: string[] = [];
      const calls: string[] = [];
      for (const block of msg.content) {
        if (block.type === "thinking") thinking.push(block.thinking);
        else if (block.type === "toolCall") {
          const args = Object.entries(block.arguments)
            .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
            .join(", ");
          calls.push(`${block.name}(${args})`);
        }
      }
      if (thinking.length > 0) parts.push(`[Assistant thinking]: ${thinking.join("\n")}`);
      if (msg.content.some((b) => b.type === "text")) parts.push(`[Assistant]: ${contentText(msg.content)}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (msg.role === "toolResult") {
      const content = contentText(msg.content, "");
      if (content) parts.push(`[Tool result]: ${truncateForSummary(content, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}
