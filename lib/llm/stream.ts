/**
 * One streaming model call through the AI SDK, reported in pi's event protocol and shapes: Strata's
 * counterpart of pi-ai's `streamSimple(model, context, options)`.
 */
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { APICallError, type FinishReason, type LanguageModelUsage, parsePartialJson, RetryError } from "ai";
import { redactSecrets } from "@/lib/agent/context-preview-redact";
import { type AssistantMessageEvent, AssistantMessageEventStream } from "./events";
import { languageModelUsage, toFunctionTools, toLanguageModelPrompt } from "./language-model-call";
import type { Env, Model } from "./models";
import { prepareRequest } from "./prepare-request";
import { effectiveLevel, requestSettings } from "./provider-settings";
import { fixRequestBody, needsBodyFix } from "./provider-wire";
import { createLanguageModel } from "./providers";
import type { TransformReport } from "./transform-report";
import {
  type AssistantMessage,
  emptyUsage,
  type Message,
  type StopReason,
  type TextContent,
  type ThinkingContent,
  type ThinkingLevel,
  type ToolCall,
  type ToolDeclaration,
  type Usage,
} from "./types";

/** What the model sees: pi's `Context` (system prompt, messages, tool declarations). */
export interface StreamContext {
  systemPrompt: string;
  messages: Message[];
  tools: ToolDeclaration[];
}

export { outputBudget, requestSettings, THINKING_BUDGETS } from "./provider-settings";

/** Options of {@link streamAssistant}. */
export interface StreamAssistantOptions {
  /** Server environment with the provider keys and base URLs (see `lib/llm/models.ts`). */
  env: Env;
  /** Cancels the request; the stream then ends with an `error` event, reason `aborted`. */
  signal?: AbortSignal;
  /** Thinking effort; `off` or unset sends no thinking options. Ignored for models without `reasoning`. */
  thinkingLevel?: ThinkingLevel;
  /** Output token cap for the answer (the thinking budget is added on top, as pi does). Default: the model's. */
  maxTokens?: number;
  /**
   * Sees the exact JSON request body and the URL before it is sent; may return a replacement body
   * (`undefined` keeps it). pi's `onPayload`, but with the URL instead of the model.
   */
  onPayload?: (payload: unknown, url: string) => unknown | undefined | Promise<unknown | undefined>;
  /** HTTP client; default the global `fetch`. */
  fetch?: typeof fetch;
  /** Filled with `transformMessages`' change report for this request (see `prepareRequest`'s `report`). */
  transformReport?: TransformReport;
}

/**
 * Retries of a request: none (the provider is called directly, once). A failed request ends the stream with an
 * `error` event and the agent layer
 * decides (pi's coding agent retries overloaded/5xx errors itself, visibly).
 */
export const MAX_RETRIES = 0;

/** The error message of an aborted request, as pi's providers write it. */
export const ABORTED_MESSAGE = "Request was aborted";

/** pi `Usage` from AI SDK usage, with cost from the model's prices (pi's `calculateCost`). */
export function usageFromSdk(model: Model, usage: LanguageModelUsage | undefined): Usage {
  const result = emptyUsage();
  if (!usage) return result;
  const cacheRead = usage.inputTokenDetails?.cacheReadTokens ?? 0;
  const cacheWrite = usage.inputTokenDetails?.cacheWriteTokens ?? 0;
  result.input =
    usage.inputTokenDetails?.noCacheTokens ?? Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite);
  result.output = usage.outputTokens ?? 0;
  result.cacheRead = cacheRead;
  result.cacheWrite = cacheWrite;
  result.totalTokens = result.input + result.output + result.cacheRead + result.cacheWrite;
  result.cost.input = (model.cost.input / 1_000_000) * result.input;
  result.cost.output = (model.cost.output / 1_000_000) * result.output;
  result.cost.cacheRead = (model.cost.cacheRead / 1_000_000) * result.cacheRead;
  result.cost.cacheWrite = (model.cost.cacheWrite / 1_000_000) * result.cacheWrite;
  result.cost.total = result.cost.input + result.cost.output + result.cost.cacheRead + result.cost.cacheWrite;
  return result;
}

/** pi's stop reason for an AI SDK finish reason (`content-filter` is an error; `other` counts as `stop`). */
export function stopReasonFromFinish(reason: FinishReason): StopReason {
  switch (reason) {
    case "length":
      return "length";
    case "tool-calls":
      return "toolUse";
    case "error":
    case "content-filter":
      return "error";
    default:
      return "stop";
  }
}

/** A readable message for a failure: `<status> <provider message>` for HTTP errors, else the error's message. */
export function errorMessageOf(error: unknown): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(cause)) {
    return cause.statusCode !== undefined ? `${cause.statusCode} ${cause.message}` : cause.message;
  }
  if (cause instanceof Error) return cause.message;
  return typeof cause === "string" ? cause : JSON.stringify(cause);
}

/**
 * A `fetch` that applies `fix` to each JSON request body (when given: the wire fix-ups of lib/llm/provider-wire.ts,
 * known once the request is prepared), then shows it to `onPayload` and sends its replacement, if any.
 */
function payloadFetch(
  base: typeof fetch,
  onPayload: StreamAssistantOptions["onPayload"],
  fix: () => ((body: unknown) => unknown) | undefined,
): typeof fetch {
  const hooked = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const fixBody = fix();
    if (typeof init?.body !== "string" || (!onPayload && !fixBody)) return base(input, init);
    let payload: unknown;
    try {
      payload = JSON.parse(init.body);
    } catch {
      return base(input, init);
    }
    if (fixBody) payload = fixBody(payload);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const replacement = onPayload ? await onPayload(payload, url) : undefined;
    const body = JSON.stringify(replacement === undefined ? payload : replacement);
    return base(input, body === init.body ? init : { ...init, body });
  };
  return hooked as typeof fetch;
}

type Metadata = Record<string, Record<string, unknown> | undefined> | undefined;

function metaString(metadata: Metadata, provider: string, key: string): string | undefined {
  const value = metadata?.[provider]?.[key];
  return typeof value === "string" ? value : undefined;
}

function asArguments(input: unknown): Record<string, unknown> {
  if (typeof input === "string") {
    try {
      return asArguments(JSON.parse(input));
    } catch {
      return {};
    }
  }
  return typeof input === "object" && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

/**
 * Stream one assistant response (pi-ai's `streamSimple` + `AssistantMessageEventStream`). Calls the provider's
 * `doStream` once (the prompt and function tools built as `streamText` would, without its per-request prompt
 * validation and stream stages: lib/llm/language-model-call.ts; {@link MAX_RETRIES} retries) and reports
 * `start`, then `text_*` / `thinking_*` / `toolcall_*` events, then `done` with the final message — or `error`.
 *
 * The final `AssistantMessage` carries `api`, `provider`, `model` (the model id), `usage` with cost in US$ from
 * the model's prices, `stopReason` (stop→"stop", length→"length", tool-calls→"toolUse", error and
 * content-filter→"error"), `responseId`, `timestamp` (ms, request start) and, on failure, `errorMessage`.
 * Content mirrors pi: thinking signatures are kept (Anthropic `signature`; redacted thinking as
 * `[Reasoning redacted]` with the data as signature; OpenAI reasoning items as JSON
 * `{type:"reasoning",id,encrypted_content,summary}`; Google thought signatures), OpenAI text gets
 * `textSignature` `{"v":1,"id"}` (Google text: its thought signature), tool calls get their parsed arguments
 * (best-effort partial parses while `toolcall_delta`s arrive).
 *
 * Never throws and never rejects: configuration errors, HTTP errors (`errorMessage` = `<status> <provider
 * message>`), dropped streams and a thrown `onPayload` end with an `error` event (`reason` "error"); an abort
 * through `options.signal` ends with `reason` "aborted" and `errorMessage` "Request was aborted". The partial
 * content streamed so far is kept in both cases.
 */
export function streamAssistant(
  model: Model,
  context: StreamContext,
  options: StreamAssistantOptions,
): AssistantMessageEventStream {
  const stream = new AssistantMessageEventStream();
  const output: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
  stream.push({ type: "start", partial: output });
  const emit = (event: AssistantMessageEvent) => stream.push(event);
  run(model, context, options, output, emit).catch((error: unknown) => {
    output.stopReason = "error";
    // Stored and shown in every member's chat: the server's secrets masked (a fetch error quotes the whole URL).
    output.errorMessage = redactSecrets(error instanceof Error ? error.message : String(error), options.env);
    emit({ type: "error", reason: "error", error: output });
  });
  return stream;
}

async function run(
  model: Model,
  context: StreamContext,
  options: StreamAssistantOptions,
  output: AssistantMessage,
  emit: (event: AssistantMessageEvent) => void,
): Promise<void> {
  const blocks = new Map<string, number>();
  const toolJson = new Map<string, string>();
  let failure: unknown;
  let aborted = false;
  let finishReason: FinishReason | undefined;

  const open = (key: string, block: AssistantMessage["content"][number]): number => {
    output.content.push(block);
    const index = output.content.length - 1;
    blocks.set(key, index);
    return index;
  };

  /** One provider stream part → pi events on `output`; a promise only while a partial tool input is parsed. */
  const handle = (part: LanguageModelV3StreamPart): Promise<void> | undefined => {
    switch (part.type) {
      case "text-start": {
        const block: TextContent = { type: "text", text: "" };
        const itemId = metaString(part.providerMetadata, "openai", "itemId");
        if (itemId) block.textSignature = JSON.stringify({ v: 1, id: itemId });
        emit({ type: "text_start", contentIndex: open(`text:${part.id}`, block), partial: output });
        break;
      }
      case "text-delta": {
        const index = blocks.get(`text:${part.id}`);
        const block = index === undefined ? undefined : output.content[index];
        if (index === undefined || block?.type !== "text") break;
        const thought = metaString(part.providerMetadata, "google", "thoughtSignature");
        if (thought) block.textSignature = thought;
        if (part.delta === "") break;
        block.text += part.delta;
        emit({ type: "text_delta", contentIndex: index, delta: part.delta, partial: output });
        break;
      }
      case "text-end": {
        const index = blocks.get(`text:${part.id}`);
        const block = index === undefined ? undefined : output.content[index];
        if (index === undefined || block?.type !== "text") break;
        const phase = metaString(part.providerMetadata, "openai", "phase");
        const itemId = metaString(part.providerMetadata, "openai", "itemId");
        if (itemId)
          block.textSignature = JSON.stringify(phase ? { v: 1, id: itemId, phase } : { v: 1, id: itemId });
        emit({ type: "text_end", contentIndex: index, content: block.text, partial: output });
        break;
      }
      case "reasoning-start": {
        const redactedData = metaString(part.providerMetadata, "anthropic", "redactedData");
        const block: ThinkingContent = redactedData
          ? {
              type: "thinking",
              thinking: "[Reasoning redacted]",
              thinkingSignature: redactedData,
              redacted: true,
            }
          : { type: "thinking", thinking: "" };
        emit({
          type: "thinking_start",
          contentIndex: open(`reasoning:${part.id}`, block),
          partial: output,
        });
        break;
      }
      case "reasoning-delta": {
        const index = blocks.get(`reasoning:${part.id}`);
        const block = index === undefined ? undefined : output.content[index];
        if (index === undefined || block?.type !== "thinking") break;
        const signature = metaString(part.providerMetadata, "anthropic", "signature");
        if (signature) block.thinkingSignature = (block.thinkingSignature ?? "") + signature;
        const thought = metaString(part.providerMetadata, "google", "thoughtSignature");
        if (thought) block.thinkingSignature = thought;
        if (part.delta === "") break;
        block.thinking += part.delta;
        emit({ type: "thinking_delta", contentIndex: index, delta: part.delta, partial: output });
        break;
      }
      case "reasoning-end": {
        const index = blocks.get(`reasoning:${part.id}`);
        const block = index === undefined ? undefined : output.content[index];
        if (index === undefined || block?.type !== "thinking") break;
        const itemId = metaString(part.providerMetadata, "openai", "itemId");
        if (itemId) {
          const encrypted = part.providerMetadata?.openai?.reasoningEncryptedContent;
          block.thinkingSignature = JSON.stringify({
            type: "reasoning",
            id: itemId,
            ...(typeof encrypted === "string" ? { encrypted_content: encrypted } : {}),
            summary: block.thinking === "" ? [] : [{ type: "summary_text", text: block.thinking }],
          });
        }
        const thought = metaString(part.providerMetadata, "google", "thoughtSignature");
        if (thought) block.thinkingSignature = thought;
        emit({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: output });
        break;
      }
      case "tool-input-start": {
        const block: ToolCall = { type: "toolCall", id: part.id, name: part.toolName, arguments: {} };
        toolJson.set(part.id, "");
        emit({ type: "toolcall_start", contentIndex: open(`tool:${part.id}`, block), partial: output });
        break;
      }
      case "tool-input-delta": {
        const index = blocks.get(`tool:${part.id}`);
        const block = index === undefined ? undefined : output.content[index];
        if (index === undefined || block?.type !== "toolCall") break;
        const json = (toolJson.get(part.id) ?? "") + part.delta;
        toolJson.set(part.id, json);
        return parsePartialJson(json).then((parsed) => {
          if (parsed.value !== undefined) block.arguments = asArguments(parsed.value);
          emit({ type: "toolcall_delta", contentIndex: index, delta: part.delta, partial: output });
        });
      }
      case "tool-call": {
        let index = blocks.get(`tool:${part.toolCallId}`);
        if (index === undefined) {
          const block: ToolCall = {
            type: "toolCall",
            id: part.toolCallId,
            name: part.toolName,
            arguments: {},
          };
          index = open(`tool:${part.toolCallId}`, block);
          emit({ type: "toolcall_start", contentIndex: index, partial: output });
        }
        const block = output.content[index];
        if (block?.type !== "toolCall") break;
        block.name = part.toolName;
        block.arguments = asArguments(part.input);
        const thought = metaString(part.providerMetadata, "google", "thoughtSignature");
        if (thought) block.thoughtSignature = thought;
        emit({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: output });
        break;
      }
      case "response-metadata":
        if (part.id) output.responseId = part.id;
        break;
      case "finish":
        finishReason = part.finishReason.unified;
        output.usage = usageFromSdk(model, languageModelUsage(part.usage));
        break;
      case "error":
        failure ??= part.error;
        break;
      default:
        break;
    }
    return undefined;
  };

  try {
    let fixBody: ((body: unknown) => unknown) | undefined;
    const languageModel = createLanguageModel(model, options.env, {
      fetch: payloadFetch(options.fetch ?? globalThis.fetch, options.onPayload, () => fixBody),
    });
    const thinking = effectiveLevel(model, options.thinkingLevel) !== undefined;
    const { system, tools, messages, thinkingAllowed, wire } = prepareRequest(model, context, {
      thinking,
      report: options.transformReport,
    });
    if (needsBodyFix(model.api, wire)) fixBody = (body) => fixRequestBody(model.api, body, wire);
    const settings = requestSettings(
      model,
      thinkingAllowed ? options : { ...options, thinkingLevel: "off" as ThinkingLevel },
    );
    if (languageModel.specificationVersion !== "v3")
      throw new Error(`Unsupported model specification ${languageModel.specificationVersion}`);
    // The provider's own stream, without streamText (see lib/llm/language-model-call.ts).
    const { stream: parts } = await (languageModel as LanguageModelV3).doStream({
      prompt: toLanguageModelPrompt(system, messages),
      tools: tools.length > 0 ? toFunctionTools(tools) : undefined,
      toolChoice: tools.length > 0 ? { type: "auto" } : undefined,
      maxOutputTokens: settings.maxOutputTokens,
      providerOptions: settings.providerOptions as Parameters<
        LanguageModelV3["doStream"]
      >[0]["providerOptions"],
      abortSignal: options.signal,
      includeRawChunks: false,
    });
    const reader = parts.getReader();
    const cancel = () => {
      aborted = true;
      reader.cancel().catch(() => {});
    };
    options.signal?.addEventListener("abort", cancel, { once: true });
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) break;
        const pending = handle(next.value);
        if (pending) await pending;
      }
    } finally {
      options.signal?.removeEventListener("abort", cancel);
    }
  } catch (error) {
    failure ??= error;
  }

  if (aborted || options.signal?.aborted) {
    output.stopReason = "aborted";
    output.errorMessage = ABORTED_MESSAGE;
    emit({ type: "error", reason: "aborted", error: output });
    return;
  }
  if (failure === undefined && finishReason === undefined) {
    failure = new Error("The response stream ended before the model finished");
  }
  if (failure !== undefined) {
    output.stopReason = "error";
    output.errorMessage = redactSecrets(errorMessageOf(failure), options.env);
    emit({ type: "error", reason: "error", error: output });
    return;
  }
  const reason = stopReasonFromFinish(finishReason as FinishReason);
  output.stopReason = reason;
  if (reason === "error" || reason === "aborted") {
    output.errorMessage = `The provider ended the response with finish reason "${finishReason}"`;
    emit({ type: "error", reason: "error", error: output });
    return;
  }
  emit({ type: "done", reason, message: output });
}
