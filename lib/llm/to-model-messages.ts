/**
 * pi `Message[]` → AI SDK `ModelMessage[]`: the provider-facing form of a context. Provider specifics that pi's
 * serializers write by hand (`packages/ai/src/api/*`) travel as AI SDK `providerOptions`, which the SDK turns
 * into the wire format: Anthropic thinking signatures and redacted data, OpenAI reasoning items (id + encrypted
 * content), Google thought signatures.
 *
 * pi's provider-independent `transformMessages` (lib/llm/transform-messages.ts) runs on `Message[]` before this;
 * `prepareRequest` (lib/llm/prepare-request.ts) chains both for the stream.
 */
import type { ModelMessage } from "ai";
import type { Model } from "./models";
import { hasImageData, NO_TOOL_OUTPUT } from "./transform-messages";
import type {
  AssistantMessage,
  ImageContent,
  Message,
  SystemMessage,
  TextContent,
  ToolDeclaration,
  ToolResultMessage,
  UserMessage,
} from "./types";

type AssistantPart = Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string>[number];
type ToolResultPart = Extract<
  Exclude<Extract<ModelMessage, { role: "tool" }>["content"], string>[number],
  { type: "tool-result" }
>;
type ProviderOptions = NonNullable<Extract<AssistantPart, { type: "reasoning" }>["providerOptions"]>;

/** The provider-facing context: one system prompt, the tools, and the non-system messages. */
export interface CollapsedContext {
  systemPrompt: string;
  tools: ToolDeclaration[];
  messages: Exclude<Message, SystemMessage>[];
}

/** An OpenAI Responses reasoning item as pi stores it in `ThinkingContent.thinkingSignature` (JSON). */
export interface OpenAIReasoningItem {
  type: "reasoning";
  id: string;
  encrypted_content?: string | null;
  summary?: { type: "summary_text"; text: string }[];
}

/** Text of a system message's `content` (text blocks joined with "\n", as pi's `getSystemMessageText`). */
function systemContentText(content: SystemMessage["content"]): string {
  return typeof content === "string" ? content : content.map((block) => block.text).join("\n");
}

/**
 * Fold every system message into one system prompt and one tool list: pi's `collapseSystemMessages`
 * (pi's `system-prompt.ts`) over `normalizeContext` (pi's `system-prompt.ts`), for providers without mid-conversation system messages.
 * `context.systemPrompt` and `context.tools` act as the leading system message; then, over all system messages in
 * order (pi's `system-prompt.ts`), non-empty text contents are collected, `sections` are patched by key (`null` deletes; a re-set
 * key keeps its position; new keys go last) and tools are removed then added by name. The prompt is the
 * collected content followed by the remaining section values, empty parts dropped, joined with "\n\n" (pi's `system-prompt.ts`).
 *
 * `prepareRequest` uses it for every provider that does not keep system messages in place (pi's the provider serializers).
 */
/**
 * A tool name safe to replay through the AI SDK: a call named like an `Object.prototype` member
 * (`constructor`, `toString`, `__proto__`, …) is dropped by its provider converters, leaving an orphan
 * result the provider rejects. Such calls (always to an unknown tool) are replayed as `<name>_`.
 */
export function replayToolName(name: string): string {
  return name === "__proto__" || Object.hasOwn(Object.prototype, name) ? `${name}_` : name;
}

export function collapseSystemMessages(context: {
  systemPrompt: string;
  messages: Message[];
  tools: ToolDeclaration[];
}): CollapsedContext {
  const contents: string[] = [];
  const sections = new Map<string, string>();
  const tools = new Map<string, ToolDeclaration>();
  const head: SystemMessage = {
    role: "system",
    content: context.systemPrompt,
    toolsAdded: context.tools,
    timestamp: 0,
  };
  const rest: Exclude<Message, SystemMessage>[] = [];
  for (const message of [head, ...context.messages]) {
    if (message.role !== "system") {
      rest.push(message);
      continue;
    }
    const text = systemContentText(message.content);
    if (text !== "") contents.push(text);
    for (const [key, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(key);
      else sections.set(key, value);
    }
    for (const removed of message.toolsRemoved ?? []) tools.delete(removed.name);
    for (const added of message.toolsAdded ?? []) {
      tools.delete(added.name);
      tools.set(added.name, added);
    }
  }
  const parts = [contents.join("\n\n"), ...sections.values()].filter((part) => part !== "");
  return { systemPrompt: parts.join("\n\n"), tools: [...tools.values()], messages: rest };
}

/** Parse an OpenAI reasoning item stored as a thinking signature; `undefined` for other signatures. */
export function parseOpenAIReasoningItem(signature: string | undefined): OpenAIReasoningItem | undefined {
  if (!signature?.startsWith("{")) return undefined;
  try {
    const item = JSON.parse(signature) as Partial<OpenAIReasoningItem>;
    return item.type === "reasoning" && typeof item.id === "string"
      ? (item as OpenAIReasoningItem)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The OpenAI message item id of a text block: pi's `textSignature` is `{"v":1,"id",...}` JSON or a plain id. */
function openAITextItemId(signature: string | undefined): { itemId: string; phase?: string } | undefined {
  if (!signature) return undefined;
  if (!signature.startsWith("{")) return { itemId: signature };
  try {
    const parsed = JSON.parse(signature) as { id?: unknown; phase?: unknown };
    if (typeof parsed.id !== "string") return undefined;
    return typeof parsed.phase === "string"
      ? { itemId: parsed.id, phase: parsed.phase }
      : { itemId: parsed.id };
  } catch {
    return undefined;
  }
}

/**
 * The call id the OpenAI Responses API knows. pi stores Responses tool-call ids as `<call_id>|<item_id>`;
 * Strata stores the plain `call_id`. Either form maps to the `call_id` part.
 */
function openAICallId(id: string): string {
  const bar = id.indexOf("|");
  return bar >= 0 ? id.slice(0, bar) : id;
}

function toolCallIdFor(id: string, model: Model): string {
  return model.api === "openai-responses" ? openAICallId(id) : id;
}

/** A user message as an AI SDK message; image blocks without data are dropped, and a message left empty too. */
function userMessage(message: UserMessage): ModelMessage | undefined {
  if (typeof message.content === "string") return { role: "user", content: message.content };
  const content = message.content
    .filter((block) => block.type === "text" || hasImageData(block))
    .map((block) =>
      block.type === "text"
        ? { type: "text" as const, text: block.text }
        : { type: "image" as const, image: block.data, mediaType: block.mimeType },
    );
  return content.length > 0 ? { role: "user", content } : undefined;
}

/**
 * Google's documented placeholder thought signature that tells Gemini to skip signature validation
 * (ai.google.dev/gemini-api/docs/thought-signatures, FAQ); Strata puts it on every function call without a
 * signature of its own: calls replayed from another model, and same-model calls whose signature is missing or
 * not valid base64 (docs/pi-differences.md). pi's `SKIP_THOUGHT_SIGNATURE` in google-shared.ts holds the same value.
 */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

const BASE64_SIGNATURE = /^[A-Za-z0-9+/]+={0,2}$/;

/** Google signatures are bytes: pi replays only base64 whose length is a multiple of 4 (pi's the provider serializers). */
export function isValidThoughtSignature(signature: string | undefined): signature is string {
  return !!signature && signature.length % 4 === 0 && BASE64_SIGNATURE.test(signature);
}

/** pi's Google rule: a signature is replayed only to the same provider and model, and only if valid (pi's the provider serializers). */
function googleSignature(message: AssistantMessage, model: Model, signature: string | undefined) {
  return message.provider === model.provider &&
    message.model === model.id &&
    isValidThoughtSignature(signature)
    ? signature
    : undefined;
}

/** One thinking block as the target provider can replay it, or `undefined` to drop it. */
function thinkingPart(
  block: Extract<AssistantMessage["content"][number], { type: "thinking" }>,
  model: Model,
  message: AssistantMessage,
): AssistantPart | undefined {
  const signature = block.thinkingSignature;
  if (block.redacted) {
    return model.api === "anthropic-messages" && signature
      ? { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: signature } } }
      : undefined;
  }
  // Strata: Google rejects blank text parts; a blank thought is dropped even when signed (only function-call
  // signatures are mandatory), where pi keeps it for its signature (pi's the provider serializers).
  if (model.api === "google-generative-ai" && (!block.thinking || block.thinking.trim() === ""))
    return undefined;
  const openAIItem = parseOpenAIReasoningItem(signature);
  if (signature) {
    let providerOptions: ProviderOptions | undefined;
    if (model.api === "anthropic-messages" && !openAIItem) providerOptions = { anthropic: { signature } };
    if (model.api === "openai-responses" && openAIItem) {
      providerOptions = {
        openai: { itemId: openAIItem.id, reasoningEncryptedContent: openAIItem.encrypted_content ?? null },
      };
    }
    const google =
      model.api === "google-generative-ai" ? googleSignature(message, model, signature) : undefined;
    if (google) providerOptions = { google: { thoughtSignature: google } };
    if (providerOptions) return { type: "reasoning", text: block.thinking, providerOptions };
  }
  if (!block.thinking || block.thinking.trim() === "") return undefined;
  // Unsigned thinking: Anthropic cannot replay it as thinking, so pi sends it as text (pi's the provider serializers).
  if (model.api === "anthropic-messages") return { type: "text", text: block.thinking };
  return { type: "reasoning", text: block.thinking };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function assistantMessage(message: AssistantMessage, model: Model): ModelMessage | undefined {
  const content: AssistantPart[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (!block.text || block.text.trim() === "") continue;
      const item = model.api === "openai-responses" ? openAITextItemId(block.textSignature) : undefined;
      const thought =
        model.api === "google-generative-ai"
          ? googleSignature(message, model, block.textSignature)
          : undefined;
      if (item) content.push({ type: "text", text: block.text, providerOptions: { openai: { ...item } } });
      else if (thought) {
        content.push({
          type: "text",
          text: block.text,
          providerOptions: { google: { thoughtSignature: thought } },
        });
      } else content.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      const part = thinkingPart(block, model, message);
      if (part) content.push(part);
    } else {
      const part: AssistantPart = {
        type: "tool-call",
        toolCallId: toolCallIdFor(block.id, model),
        toolName: replayToolName(block.name),
        input: isRecord(block.arguments) ? block.arguments : {},
      };
      if (model.api === "google-generative-ai") {
        // Every function call carries a signature: its own (same model, valid base64), else Google's skip value
        // (also for a same-model call Gemini left unsigned, e.g. the second call of a parallel batch).
        const thought = googleSignature(message, model, block.thoughtSignature) ?? SKIP_THOUGHT_SIGNATURE;
        part.providerOptions = { google: { thoughtSignature: thought } };
      }
      content.push(part);
    }
  }
  return content.length > 0 ? { role: "assistant", content } : undefined;
}

/**
 * The `providerOptions` key that marks a tool-result part as an error whose output is `content` (it has images):
 * the AI SDK has no error form of a `content` output, so the marker carries pi's `isError` to the wire fix-ups
 * (lib/llm/provider-wire.ts: Anthropic `is_error`, Google `response.error`). No provider reads this key.
 */
export const STRATA_OPTIONS_KEY = "strata";

/** Whether an AI SDK tool-result part stands for an error result (`error-text`, or marked {@link STRATA_OPTIONS_KEY}). */
export function isErrorToolResultPart(part: {
  output: { type: string };
  providerOptions?: Record<string, Record<string, unknown> | undefined>;
}): boolean {
  return part.output.type === "error-text" || part.providerOptions?.[STRATA_OPTIONS_KEY]?.isError === true;
}

/**
 * A tool result's AI SDK output: `text` for text-only results (joined with "\n", as pi's Anthropic and Responses
 * serializers), `error-text` for text-only errors, and `content` with text and `image-data` parts when there are
 * images (`(see attached image)` first when there is no text, pi's the provider serializers) — errors too, so their images
 * are sent (the error marker then travels as {@link STRATA_OPTIONS_KEY}, see {@link toModelMessages}). Image
 * blocks without data are dropped; a result left with nothing gets `(no tool output)`.
 */
export function toolResultOutput(message: ToolResultMessage): ToolResultPart["output"] {
  const texts = message.content.filter((b): b is TextContent => b.type === "text").map((b) => b.text);
  const images = message.content.filter((b): b is ImageContent => b.type === "image" && hasImageData(b));
  const emptied = texts.length === 0 && images.length === 0 && message.content.length > 0;
  const text = emptied ? NO_TOOL_OUTPUT : texts.join("\n");
  if (message.isError && images.length === 0) return { type: "error-text", value: text };
  if (images.length === 0) return { type: "text", value: text };
  return {
    type: "content",
    value: [
      ...(texts.length > 0 ? texts : ["(see attached image)"]).map((t) => ({
        type: "text" as const,
        text: t,
      })),
      ...images.map((image) => ({
        type: "image-data" as const,
        data: image.data,
        mediaType: image.mimeType,
      })),
    ],
  };
}

/**
 * Convert non-system pi messages to AI SDK messages for `model`:
 * - user → `user` with `text` / `image` (base64 + media type) parts (images without data dropped; a message
 *   left empty dropped);
 * - assistant → `assistant` with `text` (OpenAI: `providerOptions.openai.itemId` from `textSignature`; Google:
 *   its thought signature),
 *   `reasoning` (Anthropic `signature` / `redactedData`; OpenAI `itemId` + `reasoningEncryptedContent` from a
 *   stored reasoning item; Google `thoughtSignature`) and `tool-call` (input = arguments) parts. Blank text is
 *   dropped; signatures of another provider are not sent; an assistant message left empty is dropped;
 * - consecutive tool results → one `tool` message of `tool-result` parts (see {@link toolResultOutput}); an
 *   error result with images keeps them and is marked `providerOptions.strata.isError`.
 * System messages must be folded first ({@link collapseSystemMessages}); any left are skipped.
 */
export function toModelMessages(messages: Message[], model: Model): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const converted = userMessage(message);
      if (converted) out.push(converted);
    } else if (message.role === "assistant") {
      const converted = assistantMessage(message, model);
      if (converted) out.push(converted);
    } else if (message.role === "toolResult") {
      const part: ToolResultPart = {
        type: "tool-result",
        toolCallId: toolCallIdFor(message.toolCallId, model),
        toolName: replayToolName(message.toolName),
        output: toolResultOutput(message),
      };
      if (message.isError && part.output.type === "content")
        part.providerOptions = { [STRATA_OPTIONS_KEY]: { isError: true } };
      const last = out.at(-1);
      if (last?.role === "tool") last.content.push(part);
      else out.push({ role: "tool", content: [part] });
    }
  }
  return out;
}
