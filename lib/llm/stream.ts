/**
 * One streaming model call through the AI SDK, reported in pi's event protocol and shapes: Strata's
 * counterpart of pi-ai's `streamSimple(model, context, options)`.
 */
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { APICallError, type FinishReason, RetryError } from "ai";
import { redactSecrets } from "@/lib/llm/redact";
import { timeSlicer } from "@/lib/vfs/archive-limits";
import { type AssistantMessageEvent, AssistantMessageEventStream } from "./events";
import { toFunctionTools, toLanguageModelPrompt } from "./language-model-call";
import type { Env, Model } from "./models";
import { prepareRequest } from "./prepare-request";
import { type ProviderFetchHooks, providerFetch } from "./provider-fetch";
import { effectiveLevel, requestSettings } from "./provider-settings";
import { fixRequestBody, needsBodyFix } from "./provider-wire";
import { createLanguageModel } from "./providers";
import {
  IdleWatch,
  idleTimeoutMessage,
  OutputBudget,
  outputCapMessage,
  type StreamLimits,
  streamLimits,
} from "./stream-guards";
import { PartMapper } from "./stream-parts";
import type { TransformReport } from "./transform-report";
import {
  type AssistantMessage,
  emptyUsage,
  type Message,
  type StopReason,
  type ThinkingLevel,
  type ToolDeclaration,
} from "./types";

/** What the model sees: pi's `Context` (system prompt, messages, tool declarations). */
export interface StreamContext {
  systemPrompt: string;
  messages: Message[];
  tools: ToolDeclaration[];
}

export { outputBudget, requestSettings, THINKING_BUDGETS } from "./provider-settings";
export { usageFromSdk } from "./stream-parts";

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
  onPayload?: ProviderFetchHooks["onPayload"];
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
 * (best-effort partial parses while `toolcall_delta`s arrive, with bounded work: `PartialArguments` of
 * ./stream-guards.ts).
 *
 * Guards (Strata's, from `options.env`; ./stream-guards.ts): past `STRATA_MAX_TURN_OUTPUT_BYTES` of text,
 * thinking and tool-call arguments (UTF-8, default 8 MiB) the request is cancelled and the stream ends with
 * `done`, `stopReason` "length" and `errorMessage` {@link outputCapMessage}, the content kept up to the cap exactly
 * (the delta that crosses it is cut); a provider silent for `STRATA_STREAM_IDLE_MS` (default 120 s; before the
 * response headers or between body bytes) is cancelled and the stream ends with `error` and
 * {@link idleTimeoutMessage} (a transient error: pi's auto-retry repeats it).
 *
 * Never throws and never rejects: configuration errors, HTTP errors (`errorMessage` = `<status> <provider
 * message>`), dropped streams and a thrown `onPayload` end with an `error` event (`reason` "error"); an abort
 * through `options.signal` ends with `reason` "aborted" and `errorMessage` "Request was aborted". The partial
 * content streamed so far is kept in every case.
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

/** The provider's stream of parts for the prepared request (the AI SDK's `doStream`, as streamText would call it). */
async function openStream(
  model: Model,
  context: StreamContext,
  options: StreamAssistantOptions,
  hooks: { signal: AbortSignal; touch: () => void },
): Promise<ReadableStream<LanguageModelV3StreamPart>> {
  let fixBody: ((body: unknown) => unknown) | undefined;
  const languageModel = createLanguageModel(model, options.env, {
    fetch: providerFetch(options.fetch ?? globalThis.fetch, {
      onPayload: options.onPayload,
      fix: () => fixBody,
      touch: hooks.touch,
    }),
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
  const { stream } = await (languageModel as LanguageModelV3).doStream({
    prompt: toLanguageModelPrompt(system, messages),
    tools: tools.length > 0 ? toFunctionTools(tools) : undefined,
    toolChoice: tools.length > 0 ? { type: "auto" } : undefined,
    maxOutputTokens: settings.maxOutputTokens,
    providerOptions: settings.providerOptions as Parameters<
      LanguageModelV3["doStream"]
    >[0]["providerOptions"],
    abortSignal: hooks.signal,
    includeRawChunks: false,
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
  const limits = streamLimits(options.env);
  const budget = new OutputBudget(limits.maxOutputBytes);
  // Ends the provider request: the caller's abort, the idle timeout, or the output cap.
  const request = new AbortController();
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  const stop = () => {
    request.abort();
    reader?.cancel().catch(() => {});
  };
  let aborted = false;
  let timedOut = false;
  const onAbort = () => {
    aborted = true;
    stop();
  };
  const idle = new IdleWatch(limits.idleMs, () => {
    timedOut = true;
    stop();
  });
  const parts = new PartMapper({ model, output, emit, budget, onCapped: stop });
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  let failure: unknown;
  try {
    const stream = await openStream(model, context, options, {
      signal: request.signal,
      touch: () => idle.touch(),
    });
    reader = stream.getReader();
    if (request.signal.aborted) reader.cancel().catch(() => {});
    // Parts the provider already sent are read and parsed in microtasks only: a fast or large answer would hold
    // the event loop (other requests) until it is all processed. A macrotask turn every 10 ms of work.
    const slice = timeSlicer();
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const pending = parts.handle(next.value);
      if (pending) await pending;
      await slice();
    }
  } catch (error) {
    failure = error;
  } finally {
    idle.stop();
    options.signal?.removeEventListener("abort", onAbort);
  }
  await parts.settleOpenToolCalls();
  finish(output, emit, options, {
    aborted: aborted || Boolean(options.signal?.aborted),
    timedOut,
    limits,
    capped: budget.exceeded,
    failure: parts.failure ?? failure,
    finishReason: parts.finishReason,
  });
}

/** The response's end: one `done` or `error` event, by the first that applies of abort, timeout, cap, failure. */
function finish(
  output: AssistantMessage,
  emit: (event: AssistantMessageEvent) => void,
  options: StreamAssistantOptions,
  end: {
    aborted: boolean;
    timedOut: boolean;
    limits: StreamLimits;
    capped: boolean;
    failure: unknown;
    finishReason: FinishReason | undefined;
  },
): void {
  if (end.aborted) {
    output.stopReason = "aborted";
    output.errorMessage = ABORTED_MESSAGE;
    emit({ type: "error", reason: "aborted", error: output });
    return;
  }
  if (end.capped && !end.timedOut) {
    output.stopReason = "length";
    output.errorMessage = outputCapMessage(end.limits.maxOutputBytes);
    emit({ type: "done", reason: "length", message: output });
    return;
  }
  const error = end.timedOut
    ? idleTimeoutMessage(end.limits.idleMs)
    : end.failure !== undefined
      ? redactSecrets(errorMessageOf(end.failure), options.env)
      : end.finishReason === undefined
        ? "The response stream ended before the model finished"
        : undefined;
  const reason = end.finishReason === undefined ? "error" : stopReasonFromFinish(end.finishReason);
  if (error !== undefined || reason === "error" || reason === "aborted") {
    output.stopReason = "error";
    output.errorMessage = error ?? `The provider ended the response with finish reason "${end.finishReason}"`;
    emit({ type: "error", reason: "error", error: output });
    return;
  }
  output.stopReason = reason;
  emit({ type: "done", reason, message: output });
}
