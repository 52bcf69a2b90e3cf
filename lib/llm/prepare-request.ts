/**
 * The request path between a pi context and the AI SDK call: pi's per-provider `convertMessages` prologue
 * (`transformMessages` with the provider's tool-call id normalizer, then the system-message rules of pi's the provider serializers), then
 * the conversion to AI SDK messages, then Strata's payload-level guarantees (docs/pi-differences.md,
 * "Replay to providers"). `streamAssistant` calls {@link prepareRequest} for every request.
 */
import type { ModelMessage } from "ai";
import type { Model } from "./models";
import {
  bridgeToolResultsToUser,
  dropContentlessAssistants,
  googleTakesFunctionResponseParts,
  markMistralToolErrors,
  mergeConsecutiveAssistants,
  moveGoogleToolResultImages,
  moveToolResultImages,
} from "./provider-replay";
import { type WireFacts, wireFacts } from "./provider-wire";
import { collapseSystemMessages, toModelMessages } from "./to-model-messages";
import { shortHash, toolCallIdNormalizerFor } from "./tool-call-ids";
import { replaceUnpairedSurrogates, sanitizeDeep, transformMessages } from "./transform-messages";
import type { TransformReport } from "./transform-report";
import type { Message, SystemMessage, ToolDeclaration } from "./types";

export type { ModelCompat } from "./models";
export {
  bridgeToolResultsToUser,
  dropContentlessAssistants,
  GOOGLE_TOOL_RESULT_IMAGES_TEXT,
  MISTRAL_TOOL_ERROR_PREFIX,
  markMistralToolErrors,
  mergeConsecutiveAssistants,
  moveGoogleToolResultImages,
  moveToolResultImages,
  TOOL_RESULT_IMAGES_TEXT,
  TOOL_RESULTS_BRIDGE,
} from "./provider-replay";

/** A model as {@link prepareRequest} takes it: a registry model (its `compat` flags included). */
export type RequestModel = Model;

/** The provider-facing inputs of one request. */
export interface PreparedRequest {
  /** The system prompt (`""` when there is none). */
  system: string;
  /** The current tool declarations. */
  tools: ToolDeclaration[];
  /** AI SDK messages; never empty. */
  messages: ModelMessage[];
  /**
   * Whether thinking may be enabled for this request. `false` for Anthropic when the request continues a tool
   * loop whose assistant turn does not start with a signed or redacted thinking block (the API rejects that
   * with thinking on).
   */
  thinkingAllowed: boolean;
  /** What the body fix-ups after the AI SDK need (lib/llm/provider-wire.ts). */
  wire: WireFacts;
}

/** The context has nothing to send after the replay rules (every message was empty or dropped). */
export class EmptyRequestError extends Error {
  override name = "EmptyRequestError";
  constructor() {
    super("Nothing to send: the context has no message left after the provider replay rules");
  }
}

/**
 * A request with thinking on would end with an assistant turn (pi's agent refuses to continue from one; providers
 * refuse it as prefill when thinking is on).
 */
export class AssistantPrefillError extends Error {
  override name = "AssistantPrefillError";
  constructor() {
    super(
      "Cannot continue from message role: assistant (the request would end with an assistant message, which a model with thinking on refuses as prefill). Send a new message, or turn thinking off for this request.",
    );
  }
}

/**
 * Whether later system messages stay in place for `model` (pi's the provider serializers): only with
 * `compat.supportsMidConvoSystemMessages` and only for Anthropic Messages, OpenAI Responses and OpenAI Completions;
 * Google always collapses. Default: collapse.
 */
export function keepsMidConversationSystemMessages(model: RequestModel): boolean {
  if (model.compat?.supportsMidConvoSystemMessages !== true) return false;
  return (
    model.api === "anthropic-messages" ||
    model.api === "openai-responses" ||
    model.api === "openai-completions"
  );
}

function systemText(content: SystemMessage["content"] | null | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? [])
    .filter((block) => block?.type === "text")
    .map((block) => block.text)
    .join("\n");
}

/**
 * pi's `renderSystemMessageUpdate` (pi's `system-prompt.ts`): a later system message sent in place is its text, then per section
 * `Updated system prompt section "<name>":\n\n<value>` or `Removed system prompt section "<name>".`, the non-empty
 * parts joined with `"\n\n"`.
 */
export function renderSystemMessageUpdate(message: SystemMessage): string {
  const parts = [systemText(message.content)];
  for (const [name, value] of Object.entries(message.sections ?? {})) {
    parts.push(
      value === null
        ? `Removed system prompt section "${name}".`
        : `Updated system prompt section "${name}":\n\n${value}`,
    );
  }
  return parts.filter((part) => part !== "").join("\n\n");
}

/**
 * In-place system messages (pi's the provider serializers): the leading system message(s) and the prompt go to `system`; each later one
 * becomes a `system` ModelMessage rendered by {@link renderSystemMessageUpdate}, for Anthropic moved to just before
 * the next assistant message (or the end). Tools are replayed over all system messages.
 */
function inPlace(
  context: { systemPrompt: string; messages: Message[]; tools: ToolDeclaration[] },
  model: RequestModel,
): { system: string; tools: ToolDeclaration[]; messages: ModelMessage[] } {
  const firstOther = context.messages.findIndex((message) => message.role !== "system");
  const head = firstOther < 0 ? context.messages : context.messages.slice(0, firstOther);
  const rest = firstOther < 0 ? [] : context.messages.slice(firstOther);
  const collapsedHead = collapseSystemMessages({ ...context, messages: head });
  const tools = collapseSystemMessages({ ...context, messages: context.messages }).tools;
  const out: ModelMessage[] = [];
  let waiting: ModelMessage[] = [];
  let chunk: Message[] = [];
  const flushChunk = () => {
    out.push(...toModelMessages(chunk, model));
    chunk = [];
  };
  for (const message of rest) {
    if (message.role === "system") {
      flushChunk();
      const text = renderSystemMessageUpdate(message);
      if (text === "") continue;
      if (model.api === "anthropic-messages") waiting.push({ role: "system", content: text });
      else out.push({ role: "system", content: text });
      continue;
    }
    if (message.role === "assistant" && waiting.length > 0) {
      flushChunk();
      out.push(...waiting);
      waiting = [];
    }
    chunk.push(message);
  }
  flushChunk();
  out.push(...waiting);
  return { system: collapsedHead.systemPrompt, tools, messages: out };
}

type AssistantModelMessage = Extract<ModelMessage, { role: "assistant" }>;
type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];

const RESPONSES_REASONING_ID = /^rs_[A-Za-z0-9_-]{1,61}$/;
const RESPONSES_MESSAGE_ID = /^msg_[A-Za-z0-9_-]{1,60}$/;

function openaiOptions(part: AssistantPart): Record<string, unknown> | undefined {
  const options = (part as { providerOptions?: Record<string, Record<string, unknown>> }).providerOptions;
  return options?.openai;
}

/**
 * OpenAI Responses (store: false) guarantees on the converted messages: a reasoning part is kept only when it is an
 * OpenAI reasoning item with a valid `rs_` id not used before in the request, with encrypted content, and directly
 * followed by the text or tool call it produced; a text item id is kept only when it is a valid `msg_` id not used
 * before (longer than 64 characters: `msg_<shortHash>`, as pi) and, for a reasoning model, a reasoning item was
 * kept before it in the same message (OpenAI refuses a reasoning model's message item without its reasoning
 * item); an assistant message left empty is dropped. Text without an id is sent without one (pi: `msg_pi_<n>`).
 */
function enforceResponsesItems(messages: ModelMessage[], reasoningModel: boolean): ModelMessage[] {
  const used = new Set<string>();
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") {
      out.push(message);
      continue;
    }
    const parts = message.content;
    const kept: AssistantPart[] = [];
    let reasoningKept = false;
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index] as AssistantPart;
      if (part.type === "reasoning") {
        const options = openaiOptions(part);
        const id = options?.itemId;
        const encrypted = options?.reasoningEncryptedContent;
        const next = parts[index + 1];
        const ok =
          typeof id === "string" &&
          RESPONSES_REASONING_ID.test(id) &&
          !used.has(id) &&
          typeof encrypted === "string" &&
          encrypted !== "" &&
          (next?.type === "text" || next?.type === "tool-call");
        if (!ok) continue;
        used.add(id);
        reasoningKept = true;
        kept.push(part);
        continue;
      }
      if (part.type === "text") {
        const options = openaiOptions(part);
        let id = options?.itemId;
        if (typeof id === "string" && id.length > 64) id = `msg_${shortHash(id)}`;
        const paired = !reasoningModel || reasoningKept;
        if (typeof id === "string" && RESPONSES_MESSAGE_ID.test(id) && !used.has(id) && paired) {
          used.add(id);
          kept.push({
            ...part,
            providerOptions: { ...part.providerOptions, openai: { ...options, itemId: id } },
          } as AssistantPart);
        } else if (options) {
          const { itemId: _dropped, ...rest } = options;
          const { openai: _openai, ...others } = part.providerOptions ?? {};
          const providerOptions = Object.keys(rest).length > 0 ? { ...others, openai: rest } : others;
          const { providerOptions: _old, ...bare } = part;
          kept.push(
            (Object.keys(providerOptions).length > 0 ? { ...bare, providerOptions } : bare) as AssistantPart,
          );
        } else kept.push(part);
        continue;
      }
      kept.push(part);
    }
    if (kept.length > 0) out.push({ ...message, content: kept } as ModelMessage);
  }
  return out;
}

function startsWithAnthropicThinking(message: ModelMessage | undefined): boolean {
  if (message?.role !== "assistant" || typeof message.content === "string") return false;
  const first = message.content[0];
  if (first?.type !== "reasoning") return false;
  const anthropic = (first.providerOptions as Record<string, Record<string, unknown>> | undefined)?.anthropic;
  return typeof anthropic?.signature === "string" || typeof anthropic?.redactedData === "string";
}

/**
 * Anthropic with thinking: when the request continues a tool loop (the trailing user-side messages contain tool
 * results), the assistant turn before them — consecutive assistant messages merge into one turn on the wire —
 * must start with a thinking or redacted-thinking block.
 */
function anthropicThinkingAllowed(messages: ModelMessage[]): boolean {
  let index = messages.length - 1;
  let continuesToolLoop = false;
  while (index >= 0 && (messages[index]?.role === "user" || messages[index]?.role === "tool")) {
    if (messages[index]?.role === "tool") continuesToolLoop = true;
    index--;
  }
  if (!continuesToolLoop) return true;
  while (index > 0 && messages[index - 1]?.role === "assistant") index--;
  return startsWithAnthropicThinking(messages[index]);
}

/** Options of {@link prepareRequest}. */
export interface PrepareRequestOptions {
  /** Whether thinking will be on for this request (default: on where the model reasons). */
  thinking?: boolean;
  /**
   * A collector for `transformMessages`' change report (lib/llm/transform-report.ts), filled for this request's
   * model; the request itself is the same with or without it.
   */
  report?: TransformReport;
}

/**
 * Build the provider-facing request for `model` from a pi context (Strata's counterpart of the prologue of pi's
 * `convertMessages` in every `packages/ai/src/api/*` serializer):
 * 1. `transformMessages` with the target's tool-call id normalizer ({@link toolCallIdNormalizerFor}), on a deep
 *    copy, with Strata's repairs;
 * 2. system messages: kept in place where {@link keepsMidConversationSystemMessages}, else folded into one system
 *    prompt with `collapseSystemMessages` (always for Google);
 * 3. `toModelMessages`, then for OpenAI Responses the reasoning / item-id rules; Chat Completions and Mistral:
 *    tool-result images moved to a user message ({@link moveToolResultImages}); Completions: assistant messages
 *    without text or tool calls dropped; Mistral: `[tool error] ` before an error result's text and the bridge
 *    assistant between tool results and a user message;
 *    Google: consecutive assistant messages merged, and before Gemini 3 tool-result images moved to their own
 *    user turn ({@link moveGoogleToolResultImages}); Anthropic: the thinking check;
 * 4. unpaired surrogates in the system prompt and tool declarations replaced by U+FFFD.
 *
 * 5. the facts the body fix-ups need ({@link PreparedRequest.wire}).
 *
 * Throws {@link EmptyRequestError} when no message is left, {@link AssistantPrefillError} when thinking is on
 * (`options.thinking`, default `model.reasoning`; for Anthropic after the tool-loop check) and the request
 * would end with an assistant message (pi's agent refuses to continue from one). Never changes `context`.
 */
export function prepareRequest(
  model: RequestModel,
  context: { systemPrompt: string; messages: Message[]; tools: ToolDeclaration[] },
  options: PrepareRequestOptions = {},
): PreparedRequest {
  const transformed = transformMessages(context.messages ?? [], model, toolCallIdNormalizerFor(model), {
    report: options.report,
  });
  const base = {
    systemPrompt: context.systemPrompt ?? "",
    messages: transformed,
    tools: context.tools ?? [],
  };
  let prepared: { system: string; tools: ToolDeclaration[]; messages: ModelMessage[] };
  if (keepsMidConversationSystemMessages(model)) prepared = inPlace(base, model);
  else {
    const collapsed = collapseSystemMessages(base);
    prepared = {
      system: collapsed.systemPrompt,
      tools: collapsed.tools,
      messages: toModelMessages(collapsed.messages, model),
    };
  }
  let messages = prepared.messages;
  if (model.api === "openai-responses") messages = enforceResponsesItems(messages, model.reasoning);
  if (model.api === "openai-completions" || model.api === "mistral-conversations") {
    messages = moveToolResultImages(messages);
  }
  if (model.api === "openai-completions") {
    messages = dropContentlessAssistants(messages);
    if (model.compat?.requiresAssistantAfterToolResult === true) messages = bridgeToolResultsToUser(messages);
  }
  if (model.api === "mistral-conversations")
    messages = bridgeToolResultsToUser(markMistralToolErrors(messages));
  if (model.api === "google-generative-ai") {
    messages = mergeConsecutiveAssistants(messages);
    if (!googleTakesFunctionResponseParts(model.id)) messages = moveGoogleToolResultImages(messages);
  }
  if (!messages.some((message) => message.role !== "system")) throw new EmptyRequestError();
  const thinking = options.thinking ?? model.reasoning;
  const thinkingAllowed =
    model.api === "anthropic-messages" && thinking ? anthropicThinkingAllowed(messages) : true;
  if (thinking && thinkingAllowed && messages.findLast((m) => m.role !== "system")?.role === "assistant")
    throw new AssistantPrefillError();
  const tools = sanitizeDeep(prepared.tools);
  return {
    system: replaceUnpairedSurrogates(prepared.system),
    tools,
    messages,
    thinkingAllowed,
    wire: wireFacts(messages, {
      toolHistory: hasToolHistory(context.messages ?? []),
      hasTools: tools.length > 0,
      reasoningContentOnAssistants:
        model.api === "openai-completions" &&
        model.reasoning &&
        model.compat?.requiresReasoningContentOnAssistantMessages === true,
      chat: model.api === "openai-completions" ? chatCompat(model) : {},
    }),
  };
}

/** The body changes of a Chat Completions model's compat flags (lib/llm/provider-wire.ts, `WireFacts.chat`). */
function chatCompat(model: RequestModel): WireFacts["chat"] {
  const compat = model.compat ?? {};
  const chat: WireFacts["chat"] = {};
  if (compat.supportsStore !== undefined) chat.store = compat.supportsStore;
  if (compat.supportsDeveloperRole !== undefined)
    chat.role = model.reasoning && compat.supportsDeveloperRole ? "developer" : "system";
  if (compat.maxTokensField) chat.maxTokensField = compat.maxTokensField;
  if (compat.requiresToolResultName) chat.toolResultNames = true;
  if (compat.requiresAssistantAfterToolResult) chat.emptyAssistantContent = true;
  return chat;
}

/** pi's `hasToolHistory` (openai-completions.ts): a tool result, or an assistant message with a tool call. */
function hasToolHistory(messages: readonly Message[]): boolean {
  return messages.some(
    (message) =>
      message?.role === "toolResult" ||
      (message?.role === "assistant" &&
        Array.isArray(message.content) &&
        message.content.some((block) => block?.type === "toolCall")),
  );
}
