/**
 * The `images.blockImages` setting (pi's `convertToLlmWithBlockImages` wrapper in
 * `packages/coding-agent/src/core/sdk.ts`, pi's `sdk.ts`): a product policy that keeps images away from
 * every model, applied after `convertToLlm` and before the provider's own image handling.
 */
import type { AgentMessage } from "@/lib/agent/messages";
import type { ImageContent, Message, TextContent } from "@/lib/llm/types";
import { convertToLlm } from "./convert-to-llm";

/** The text that replaces a blocked image (pi's `sdk.ts`). */
export const IMAGE_READING_DISABLED = "Image reading is disabled.";

const isPlaceholder = (block: TextContent | ImageContent | undefined) =>
  block?.type === "text" && block.text === IMAGE_READING_DISABLED;

/**
 * Replace every image block of `user` and `toolResult` array contents by the text {@link IMAGE_READING_DISABLED}
 * and drop a placeholder directly following another placeholder: `[text "two pics", img, img, text "end", img]` →
 * `["two pics", placeholder, "end", placeholder]` (pi's `sdk.ts`). Messages without images, string contents and other roles
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
 * pi's `SettingsManager.getBlockImages()` on settings already merged (global, then a trusted project's; see
 * lib/resources/pi-settings.ts): `settings.images?.blockImages`, where any truthy value blocks, as pi's
 * `if (!settingsManager.getBlockImages())` reads it. Missing `images` or a non-object → false.
 */
export function blockImagesSetting(settings: Record<string, unknown>): boolean {
  const images = settings.images;
  return (
    typeof images === "object" &&
    images !== null &&
    Boolean((images as { blockImages?: unknown }).blockImages)
  );
}

/**
 * pi's wrapped `convertToLlm` (`convertToLlmWithBlockImages`): {@link convertToLlm}, then {@link blockImages} when
 * `isBlocked()` is true. The setting is read on every call, so a change applies to the next request of a running
 * session (pi's `sdk.ts`). With an `isBlocked` that answers a promise (a run reading the settings files again for each
 * request), the converter answers a promise too.
 */
export function createConvertToLlm(
  isBlocked: () => boolean,
): (messages: readonly AgentMessage[]) => Message[];
export function createConvertToLlm(
  isBlocked: () => Promise<boolean>,
): (messages: readonly AgentMessage[]) => Promise<Message[]>;
export function createConvertToLlm(
  isBlocked: () => boolean | Promise<boolean>,
): (messages: readonly AgentMessage[]) => Message[] | Promise<Message[]> {
  return (messages) => {
    const blocked = isBlocked();
    const apply = (on: boolean) => {
      const converted = convertToLlm(messages);
      return on ? blockImages(converted) : converted;
    };
    return typeof blocked === "boolean" ? apply(blocked) : blocked.then(apply);
  };
}
