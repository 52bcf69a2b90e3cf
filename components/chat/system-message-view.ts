/**
 * What the chat's system-message block shows (message-view.tsx), as plain data: the transcript's first system
 * message is the prompt the session started with (pi `getSystemMessageText`: its text, then each section); every
 * later one is a patch, shown as pi sends it in place (`renderSystemMessageUpdate` in pi's `system-prompt.ts` — the same text as
 * lib/llm/prepare-request.ts's) with the tools it declared and withdrew, by name.
 */
import type { SystemMessage } from "@/lib/llm/types";
import { getSystemMessageText, renderSystemMessageUpdate } from "@/lib/prompt/system-message";

export interface SystemMessageDisplay {
  /** The block's one-line summary: `System prompt`, or `System prompt updated: <what changed>`. */
  summary: string;
  /** The prompt text (head) or the rendered update (patch); `""` when the message carries no text. */
  text: string;
  /** Names in `toolsAdded`, in order. */
  toolsAdded: string[];
  /** Names in `toolsRemoved`, in order. */
  toolsRemoved: string[];
  /** Shown when `text` is empty, so an open block is never a blank box. */
  emptyText: string;
}

const names = (tools: readonly { name?: unknown }[] | undefined) =>
  (Array.isArray(tools) ? tools : [])
    .map((t) => (t && typeof t.name === "string" ? t.name : ""))
    .filter((n) => n !== "");

/**
 * The display of system message `message`; `head` is true for the transcript's first system message.
 * Head: summary `System prompt`, text = `getSystemMessageText(message)`. Later: summary
 * `System prompt updated: section <name>, + tool <name>, − tool <name>` (`~ tool <name>` for one both removed and added:
 * a changed definition) (or `System prompt updated: text` for a
 * message with only text; `System prompt updated` for one with nothing), text = `renderSystemMessageUpdate(message)`.
 * Total over stored content: missing or malformed fields count as empty.
 */
export function systemMessageDisplay(message: SystemMessage, head: boolean): SystemMessageDisplay {
  const sections =
    message.sections && typeof message.sections === "object" && !Array.isArray(message.sections)
      ? message.sections
      : {};
  const safe = { content: message.content ?? "", sections };
  const toolsAdded = names(message.toolsAdded);
  const toolsRemoved = names(message.toolsRemoved);
  if (head) {
    const text = getSystemMessageText(safe);
    return {
      summary: "System prompt",
      text,
      toolsAdded,
      toolsRemoved,
      emptyText:
        toolsAdded.length > 0
          ? "This message has no prompt text; it only declares the tools below."
          : "This message has no prompt text.",
    };
  }
  const text = renderSystemMessageUpdate(safe);
  const changes = [
    ...(getSystemMessageText({ content: safe.content }) !== "" ? ["text"] : []),
    ...Object.keys(sections).map((name) => `section ${name}`),
    // A changed definition is a removal plus an addition (pi `getToolStateChanges`): one `~` entry.
    ...toolsAdded.map((name) => `${toolsRemoved.includes(name) ? "~" : "+"} tool ${name}`),
    ...toolsRemoved.filter((name) => !toolsAdded.includes(name)).map((name) => `− tool ${name}`),
  ];
  return {
    summary: changes.length > 0 ? `System prompt updated: ${changes.join(", ")}` : "System prompt updated",
    text,
    toolsAdded,
    toolsRemoved,
    emptyText: "No text changed.",
  };
}
