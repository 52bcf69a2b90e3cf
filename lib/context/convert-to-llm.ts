/**
 * pi's `convertToLlm` (`packages/coding-agent/src/core/messages.ts`, pi's `messages.ts`): the coding-agent
 * message roles a session holds (`AgentMessage`) turned into the provider roles (`Message`) right before a model
 * call. Summaries and `!` commands become user text; extension messages become user content.
 */
import type {
  AgentMessage,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
} from "@/lib/agent/messages";
import type { Message, UserMessage } from "@/lib/llm/types";

/** Text before a compaction summary (pi's `messages.ts`). */
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
/** Text after a compaction summary (pi's `messages.ts`): a newline, then the closing tag. */
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
/** Text before a branch summary (pi's `messages.ts`). */
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
/** Text after a branch summary (pi's `messages.ts`): the closing tag with **no** newline before it (unlike compaction). */
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/**
 * pi's `bashExecutionToText` (pi's `messages.ts`): `` Ran `<command>`\n ``, then the output in a fenced block
 * (```` ```\n<output>\n``` ````) or `(no output)` when it is empty; then `\n\n(command cancelled)` when cancelled,
 * else `\n\nCommand exited with code <n>` for a numeric non-zero exit code; then
 * `\n\n[Output truncated. Full output: <path>]` when truncated and a full-output path exists.
 * `{command:"ls", output:"a\nb", exitCode:0}` → ``"Ran `ls`\n```\na\nb\n```"``.
 */
export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (typeof message.exitCode === "number" && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath) {
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  }
  return text;
}

function userText(text: string, timestamp: number): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** The user text of a compaction summary (pi's `messages.ts`). */
export function compactionSummaryText(message: Pick<CompactionSummaryMessage, "summary">): string {
  return COMPACTION_SUMMARY_PREFIX + message.summary + COMPACTION_SUMMARY_SUFFIX;
}

/** The user text of a branch summary (pi's `messages.ts`). */
export function branchSummaryText(message: Pick<BranchSummaryMessage, "summary">): string {
  return BRANCH_SUMMARY_PREFIX + message.summary + BRANCH_SUMMARY_SUFFIX;
}

/**
 * pi's `convertToLlm(messages)`, in order, timestamps kept:
 * - `system`, `user`, `assistant`, `toolResult` pass through unchanged (same objects, pi's `messages.ts`);
 * - `bashExecution` → user message with one text block {@link bashExecutionToText} (pi's `messages.ts`), dropped when
 *   `excludeFromContext` (the `!!` prefix, pi's `messages.ts`);
 * - `custom` → user message with the same content (a string wrapped as one text block; arrays, images included,
 *   kept); `customType`, `display`, `details` are not sent (pi's `messages.ts`);
 * - `compactionSummary` / `branchSummary` → user text with their prefix and suffix (pi's `messages.ts`);
 * - any other role is dropped.
 * Never throws; the input is not modified.
 */
export function convertToLlm(messages: readonly AgentMessage[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
      case "user":
      case "assistant":
      case "toolResult":
        out.push(message);
        break;
      case "bashExecution":
        if (!message.excludeFromContext) out.push(userText(bashExecutionToText(message), message.timestamp));
        break;
      case "custom":
        out.push({
          role: "user",
          content:
            typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content,
          timestamp: message.timestamp,
        });
        break;
      case "compactionSummary":
        out.push(userText(compactionSummaryText(message), message.timestamp));
        break;
      case "branchSummary":
        out.push(userText(branchSummaryText(message), message.timestamp));
        break;
      default:
        break;
    }
  }
  return out;
}
