/**
 * Per-provider rewrites of the converted AI SDK messages that pi's serializers do by hand
 * (`packages/ai/src/api/openai-completions.ts`, `mistral-conversations.ts`, `google-shared.ts`) and the AI SDK's
 * converters do differently. `prepareRequest` (lib/llm/prepare-request.ts) applies them per `model.api`.
 */
import type { ModelMessage } from "ai";

type AssistantModelMessage = Extract<ModelMessage, { role: "assistant" }>;
type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type ToolModelMessage = Extract<ModelMessage, { role: "tool" }>;
type ToolMessagePart = ToolModelMessage["content"][number];
type UserPart = Exclude<Extract<ModelMessage, { role: "user" }>["content"], string>[number];

/** pi's bridge before a user message that follows tool results (pi's `requiresAssistantAfterToolResult`). */
export const TOOL_RESULTS_BRIDGE = "I have processed the tool results.";
/** pi's lead text of the user message carrying tool-result images on Chat Completions (pi's the provider serializers). */
export const TOOL_RESULT_IMAGES_TEXT = "Attached image(s) from tool result:";
/** pi's lead text of the user turn carrying one tool result's images for Gemini before 3 (pi's the provider serializers). */
export const GOOGLE_TOOL_RESULT_IMAGES_TEXT = "Tool result image:";

/**
 * One tool-result part with its images taken out: a `content` output becomes its texts joined with "\n" (the
 * output already starts with `(see attached image)` when the result had no text), as `error-text` when the part
 * is an error (marked by `toModelMessages`); the images are appended to `images`. Other parts are returned as is.
 */
function withoutImages(part: ToolMessagePart, images: UserPart[]): ToolMessagePart {
  if (part.type !== "tool-result" || part.output.type !== "content") return part;
  const texts: string[] = [];
  for (const item of part.output.value) {
    if (item.type === "text") texts.push(item.text);
    else if (item.type === "image-data")
      images.push({ type: "image", image: item.data, mediaType: item.mediaType });
  }
  const isError = part.providerOptions?.strata?.isError === true;
  return { ...part, output: { type: isError ? "error-text" : "text", value: texts.join("\n") } };
}

/**
 * Chat Completions and Mistral (pi's the provider serializers and `mistral-conversations.ts`): a tool message carries text only — the
 * AI SDK would put a result with images into the tool message as JSON text, base64 included. Each image result
 * becomes its texts joined with "\n" (`(see attached image)` when it has none; an error result stays an error),
 * and the images of one run of tool results follow as one user message
 * `[{text: "Attached image(s) from tool result:"}, ...images]`. Only vision models get here with images
 * (`transformMessages` replaced them by placeholders otherwise).
 */
export function moveToolResultImages(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role !== "tool") {
      out.push(message);
      continue;
    }
    const images: UserPart[] = [];
    const content = message.content.map((part) => withoutImages(part, images)) as ToolModelMessage["content"];
    out.push({ ...message, content });
    if (images.length > 0)
      out.push({ role: "user", content: [{ type: "text", text: TOOL_RESULT_IMAGES_TEXT }, ...images] });
  }
  return out;
}

/**
 * Whether Gemini takes images inside a function response (`functionResponse.parts`): the AI SDK's rule
 * (`usesGemini3Features`: a `gemini-` id that is not Gemini 1, 2 or the old `gemini-pro`), which is pi's
 * "Gemini 3 and later" for the catalog's ids.
 */
export function googleTakesFunctionResponseParts(modelId: string): boolean {
  if (!/(^|\/)gemini-/i.test(modelId)) return false;
  return !(
    /(^|\/)gemini-[12](?:[.-]|$)/i.test(modelId) ||
    /(^|\/)gemini-pro(?:-vision)?$/i.test(modelId) ||
    /(^|\/)gemini-robotics-er-1\.5(?:[.-]|$)/i.test(modelId)
  );
}

/**
 * Google models without function-response parts (pi's the provider serializers, Gemini before 3): each tool result with images is
 * sent as text (`(see attached image)` when it has none; errors stay errors) and its images follow right after
 * it as a user turn `[{text: "Tool result image:"}, ...images]`; later results of the same run start a new
 * function-response turn, as pi's serializer does. The AI SDK would instead send each text as its own function
 * response and each image with the text `Tool executed successfully and returned this image as a response`.
 */
export function moveGoogleToolResultImages(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role !== "tool") {
      out.push(message);
      continue;
    }
    let run: ToolMessagePart[] = [];
    for (const part of message.content) {
      const images: UserPart[] = [];
      run.push(withoutImages(part, images));
      if (images.length === 0) continue;
      out.push({ ...message, content: run as ToolModelMessage["content"] });
      out.push({
        role: "user",
        content: [{ type: "text", text: GOOGLE_TOOL_RESULT_IMAGES_TEXT }, ...images],
      });
      run = [];
    }
    if (run.length > 0) out.push({ ...message, content: run as ToolModelMessage["content"] });
  }
  return out;
}

/** pi's Mistral marker before an error result's text (`mistral-conversations.ts`, `buildToolResultText`). */
export const MISTRAL_TOOL_ERROR_PREFIX = "[tool error] ";

/**
 * Mistral has no error field on tool messages: as pi's serializer, an error result's text is trimmed and sent
 * after `[tool error] ` (run after {@link moveToolResultImages}, so every output is text).
 */
export function markMistralToolErrors(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((message) => {
    if (
      message.role !== "tool" ||
      !message.content.some((p) => p.type === "tool-result" && p.output.type === "error-text")
    )
      return message;
    const content = message.content.map((part) =>
      part.type === "tool-result" && part.output.type === "error-text"
        ? {
            ...part,
            output: { ...part.output, value: `${MISTRAL_TOOL_ERROR_PREFIX}${part.output.value.trim()}` },
          }
        : part,
    );
    return { ...message, content };
  });
}

/**
 * Mistral rejects a user message right after tool results (`Unexpected role 'user' after role 'tool'`): pi's
 * bridge assistant message `I have processed the tool results.` is inserted there (pi's the provider serializers).
 */
export function bridgeToolResultsToUser(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user" && out.at(-1)?.role === "tool")
      out.push({ role: "assistant", content: [{ type: "text", text: TOOL_RESULTS_BRIDGE }] });
    out.push(message);
  }
  return out;
}

/**
 * Chat Completions (pi's the provider serializers): an assistant message with neither text nor tool calls (e.g. only reasoning) is
 * dropped; it would go out with empty content.
 */
export function dropContentlessAssistants(messages: ModelMessage[]): ModelMessage[] {
  return messages.filter(
    (message) =>
      message.role !== "assistant" ||
      (typeof message.content === "string"
        ? message.content.trim() !== ""
        : message.content.some((part) => part.type === "text" || part.type === "tool-call")),
  );
}

/**
 * Google: consecutive assistant messages become one model turn (parts in order). Gemini rejects a function call
 * turn that does not come right after a user turn or a function response turn, which a text-only assistant turn
 * followed by a calling one would produce.
 */
export function mergeConsecutiveAssistants(messages: ModelMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    const last = out.at(-1);
    if (message.role === "assistant" && last?.role === "assistant") {
      const parts = (content: AssistantModelMessage["content"]): AssistantPart[] =>
        typeof content === "string" ? [{ type: "text", text: content }] : content;
      out[out.length - 1] = { ...last, content: [...parts(last.content), ...parts(message.content)] };
    } else out.push(message);
  }
  return out;
}
