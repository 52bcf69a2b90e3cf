/**
 * The `images.blockImages` setting (pi's `convertToLlmWithBlockImages` wrapper in
 * `packages/coding-agent/src/core/sdk.ts`, pi-behaviors 11.1–11.2): a product policy that keeps images away from
 * every model, applied after `convertToLlm` and before the provider's own image handling.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { ImageContent, Message, TextContent } from "@/lib/llm/types";
import { convertToLlm } from "./convert-to-llm";

/** The text that replaces a blocked image (11.1). */
export const IMAGE_READING_DISABLED = "Image reading is disabled.";

const isPlaceholder = (block: TextContent | ImageContent | undefined) =>
  block?.type === "text" && block.text === IMAGE_READING_DISABLED;

/**
 * Replace every image block of `user` and `toolResult` array contents by the text {@link IMAGE_READING_DISABLED}
 * and drop a placeholder directly following another placeholder: `[text "two pics", img, img, text "end", img]` →
 * `["two pics", placeholder, "end", placeholder]` (11.1). Messages without images, string contents and other roles
 * are returned as they are (same objects); the input is not modified.
 */
export function blockImages(messages: readonly Message[]): Message[] {
  return messages.map((message) => {
    if (message.role !== "user" && message.role !== "toolResult") return message;
    if (!Array.isArray(message.content) || !message.content.some((block) => block?.type === "image")) {
      return message;
    }
    const replaced = message.content.map((block): TextContent | ImageContent =>
      block.type === "image" ? { type: "text", text: IMAGE_READING_DISABLED } : block,
    );
    const content = replaced.filter(
      (block, index) => !(index > 0 && isPlaceholder(block) && isPlaceholder(replaced[index - 1])),
    );
    return { ...message, content } as Message;
  });
}

/**
 * pi's wrapped `convertToLlm`: {@link convertToLlm}, then {@link blockImages} when `isBlocked()` is true. The
 * setting is read on every call, so a change applies to the next request of a running session (11.2).
 */
export function createConvertToLlm(
  isBlocked: () => boolean,
): (messages: readonly AgentMessage[]) => Message[] {
  return (messages) => {
    const converted = convertToLlm(messages);
    return isBlocked() ? blockImages(converted) : converted;
  };
}
