/**
 * The provider call below `streamText`: AI SDK `ModelMessage`s as the provider-level prompt
 * (`LanguageModelV3Prompt`), tool declarations as function tools, and the provider's usage as the SDK's
 * `LanguageModelUsage`. `streamAssistant` calls the provider's `doStream` with these directly.
 *
 * Why not `streamText`: for every request it validates the whole `ModelMessage[]` against its zod schema (about
 * 60–90 µs per message: a 2,000-message branch spent 110–170 ms there, most of the time from stored entries to the
 * payload), and its stream runs every chunk through about ten more web-stream stages, which capped a stream at
 * about 18,000 tokens/s on a 2-core machine where the provider's own stream delivers about 58,000 (bench
 * "pipeline"). Strata's messages are built by `toModelMessages`, so their shape holds by construction, and one
 * step without tool execution needs none of `streamText`'s machinery.
 *
 * {@link toLanguageModelPrompt} mirrors the SDK's `convertToLanguageModelPrompt` for the parts
 * `toModelMessages` produces (bodies compared byte for byte for every catalog model), with one difference: an
 * image keeps its declared media type (the SDK sniffs the bytes and may replace it; pi sends the declared one).
 */
import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { LanguageModelUsage, ModelMessage } from "ai";
import type { ToolDeclaration } from "./types";

type Part<M extends LanguageModelV3Message> = Exclude<M["content"], string>[number];
type UserPart = Part<Extract<LanguageModelV3Message, { role: "user" }>>;
type AssistantPart = Part<Extract<LanguageModelV3Message, { role: "assistant" }>>;
type ToolPart = Part<Extract<LanguageModelV3Message, { role: "tool" }>>;

/** Thrown for a part `toModelMessages` never produces (files, URLs, approvals): a bug, not a user error. */
function unsupported(what: string): never {
  throw new Error(`Unsupported prompt part for a direct provider call: ${what}`);
}

function userParts(message: Extract<ModelMessage, { role: "user" }>): UserPart[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  const parts: UserPart[] = [];
  for (const part of message.content) {
    if (part.type === "text") {
      if (part.text !== "")
        parts.push({ type: "text", text: part.text, providerOptions: part.providerOptions });
    } else if (part.type === "image") {
      if (typeof part.image !== "string") unsupported("image that is not base64 text");
      parts.push({
        type: "file",
        mediaType: part.mediaType ?? "image/*",
        filename: undefined,
        data: part.image,
        providerOptions: part.providerOptions,
      });
    } else unsupported(part.type);
  }
  return parts;
}

function assistantParts(message: Extract<ModelMessage, { role: "assistant" }>): AssistantPart[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  const parts: AssistantPart[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case "text":
        if (part.text !== "" || part.providerOptions != null)
          parts.push({ type: "text", text: part.text, providerOptions: part.providerOptions });
        break;
      case "reasoning":
        parts.push({ type: "reasoning", text: part.text, providerOptions: part.providerOptions });
        break;
      case "tool-call":
        parts.push({
          type: "tool-call",
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          providerExecuted: part.providerExecuted,
          providerOptions: part.providerOptions,
        });
        break;
      default:
        unsupported(`assistant ${part.type}`);
    }
  }
  return parts;
}

function toolParts(message: Extract<ModelMessage, { role: "tool" }>): ToolPart[] {
  return message.content.map((part): ToolPart => {
    if (part.type !== "tool-result") unsupported(part.type);
    if (part.output.type === "content" && part.output.value.some((item) => item.type.endsWith("-url")))
      unsupported("tool output URL");
    return {
      type: "tool-result",
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      output: part.output as Extract<ToolPart, { type: "tool-result" }>["output"],
      providerOptions: part.providerOptions,
    };
  });
}

/**
 * The SDK's `convertToLanguageModelPrompt` for `system` + `messages`: the system prompt first (when not empty),
 * user text and base64 images (as `file` parts), assistant text / reasoning / tool calls (empty text without
 * provider options dropped), and consecutive tool messages merged into one.
 */
export function toLanguageModelPrompt(system: string, messages: ModelMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] = system === "" ? [] : [{ role: "system", content: system }];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content, providerOptions: message.providerOptions });
        break;
      case "user":
        prompt.push({ role: "user", content: userParts(message), providerOptions: message.providerOptions });
        break;
      case "assistant":
        prompt.push({
          role: "assistant",
          content: assistantParts(message),
          providerOptions: message.providerOptions,
        });
        break;
      case "tool": {
        const content = toolParts(message);
        const last = prompt.at(-1);
        if (last?.role === "tool") {
          last.content.push(...content);
          last.providerOptions = message.providerOptions;
        } else prompt.push({ role: "tool", content, providerOptions: message.providerOptions });
        break;
      }
    }
  }
  return prompt.filter((message) => message.role !== "tool" || message.content.length > 0);
}

/** Tool declarations as the provider's function tools (what `streamText` sends for tools without `execute`). */
export function toFunctionTools(tools: ToolDeclaration[]): LanguageModelV3FunctionTool[] {
  return tools.map((declaration) => ({
    type: "function",
    name: declaration.name,
    description: declaration.description,
    inputSchema: declaration.parameters as LanguageModelV3FunctionTool["inputSchema"],
    providerOptions: undefined,
  }));
}

/** The SDK's `asLanguageModelUsage`: provider usage as `LanguageModelUsage`. */
export function languageModelUsage(usage: LanguageModelV3Usage): LanguageModelUsage {
  const input = usage.inputTokens.total;
  const output = usage.outputTokens.total;
  return {
    inputTokens: input,
    inputTokenDetails: {
      noCacheTokens: usage.inputTokens.noCache,
      cacheReadTokens: usage.inputTokens.cacheRead,
      cacheWriteTokens: usage.inputTokens.cacheWrite,
    },
    outputTokens: output,
    outputTokenDetails: {
      textTokens: usage.outputTokens.text,
      reasoningTokens: usage.outputTokens.reasoning,
    },
    totalTokens: input === undefined && output === undefined ? undefined : (input ?? 0) + (output ?? 0),
    reasoningTokens: usage.outputTokens.reasoning,
    cachedInputTokens: usage.inputTokens.cacheRead,
    raw: usage.raw,
  };
}
