/**
 * Fix-ups of the JSON body the AI SDK built, for the few pi behaviours its converters cannot express
 * (pi's the provider serializers.x; docs/pi-differences.md "Replay to providers"). `streamAssistant` applies
 * {@link fixRequestBody} in its `fetch` before `onPayload` sees the body, so a payload capture (the context
 * preview) shows exactly what is sent. Bodies that need no fix are passed through untouched
 * ({@link needsBodyFix}).
 */
import type { ModelMessage } from "ai";
import { isErrorToolResultPart } from "./to-model-messages";
import type { Api } from "./types";

/** What the fix-ups need to know about one prepared request. */
export interface WireFacts {
  /**
   * Every tool result sent, in request order: its wire `toolCallId`, tool name, whether it is an error and whether
   * its output carries images (a `content` output).
   */
  toolResults: { toolCallId: string; toolName: string; isError: boolean; hasImages: boolean }[];
  /** The context has tool calls or tool results (pi's `hasToolHistory`, over the messages before the replay rules). */
  toolHistory: boolean;
  /** Whether any tool is declared. */
  hasTools: boolean;
  /** `reasoning_content: ""` goes on every assistant message without one (compat, see `ModelCompat`). */
  reasoningContentOnAssistants: boolean;
  /** Chat Completions compat flags that change the body (see `ModelCompat`); `{}` when none applies. */
  chat: {
    store?: boolean;
    role?: "developer" | "system";
    maxTokensField?: "max_tokens" | "max_completion_tokens";
    toolResultNames?: boolean;
    emptyAssistantContent?: boolean;
  };
}

/** The {@link WireFacts} of prepared messages (after every per-provider rewrite). */
export function wireFacts(messages: ModelMessage[], other: Omit<WireFacts, "toolResults">): WireFacts {
  const toolResults: WireFacts["toolResults"] = [];
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      toolResults.push({
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        isError: isErrorToolResultPart(
          part as Parameters<typeof isErrorToolResultPart>[0] & { toolCallId: string },
        ),
        hasImages: part.output.type === "content",
      });
    }
  }
  return { toolResults, ...other };
}

/** Whether {@link fixRequestBody} would change anything for `api` (so the body need not be parsed otherwise). */
export function needsBodyFix(api: Api, facts: WireFacts): boolean {
  switch (api) {
    case "anthropic-messages":
      // The AI SDK marks text-only errors itself.
      return facts.toolResults.some((result) => result.isError && result.hasImages);
    case "google-generative-ai":
      return facts.toolResults.some((result) => result.isError);
    case "openai-completions":
      return (
        (facts.toolHistory && !facts.hasTools) ||
        facts.reasoningContentOnAssistants ||
        Object.keys(facts.chat).length > 0
      );
    default:
      return false;
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

/**
 * The request body with pi's markers that the AI SDK leaves out (mutates and returns `body`):
 * - Anthropic: every error tool result has `is_error: true` — also one with images (the SDK marks only text-only
 *   errors; pi's the provider serializers keeps `is_error` with the images);
 * - Google: an error's function response carries its text as `response.error` instead of `response.content`
 *   (pi sends `{ error }` for errors, `{ output }` otherwise; the SDK sends `{ name, content }` for both), matched
 *   by position (one function response per tool result);
 * - OpenAI Chat Completions: `tools: []` when the history has tool calls or results and no tool is declared
 *   (pi's the provider serializers: proxies such as LiteLLM require it), and with `reasoningContentOnAssistants` an empty
 *   `reasoning_content` on every assistant message without one (pi's
 *   `compat.requiresReasoningContentOnAssistantMessages`); the other Chat Completions compat flags: `store`,
 *   the instruction role, the output cap's field name, tool-result `name`s, `""` for empty assistant content.
 *
 * Throws when the Google body's function responses do not match the tool results one to one (a bug in the
 * request path, never a user error).
 */
export function fixRequestBody(api: Api, body: unknown, facts: WireFacts): unknown {
  if (!isObject(body)) return body;
  if (api === "anthropic-messages") {
    const errors = new Set(facts.toolResults.filter((r) => r.isError).map((r) => r.toolCallId));
    for (const message of objects(body.messages))
      for (const block of objects(message.content))
        if (block.type === "tool_result" && errors.has(String(block.tool_use_id))) block.is_error = true;
  } else if (api === "google-generative-ai") {
    const responses = objects(body.contents).flatMap((content) =>
      objects(content.parts).flatMap((part) =>
        isObject(part.functionResponse) ? [part.functionResponse] : [],
      ),
    );
    if (responses.length !== facts.toolResults.length)
      throw new Error(
        `Internal error in the Google request: ${responses.length} function responses for ${facts.toolResults.length} tool results`,
      );
    responses.forEach((functionResponse, index) => {
      const response = functionResponse.response;
      if (!facts.toolResults[index]?.isError || !isObject(response) || !("content" in response)) return;
      const { content, ...rest } = response;
      functionResponse.response = { ...rest, error: content };
    });
  } else if (api === "openai-completions") {
    if (facts.toolHistory && !facts.hasTools && body.tools === undefined) body.tools = [];
    if (facts.reasoningContentOnAssistants)
      for (const message of objects(body.messages))
        if (message.role === "assistant" && message.reasoning_content === undefined)
          message.reasoning_content = "";
    fixChatCompat(body, facts);
  }
  return body;
}

/** The Chat Completions compat flags of `facts.chat` (see `ModelCompat` for each). */
function fixChatCompat(body: Json, facts: WireFacts): void {
  const { store, role, maxTokensField, toolResultNames, emptyAssistantContent } = facts.chat;
  if (store === true) body.store = false;
  if (store === false) delete body.store;
  if (maxTokensField) {
    const other = maxTokensField === "max_tokens" ? "max_completion_tokens" : "max_tokens";
    if (body[other] !== undefined && body[maxTokensField] === undefined) {
      body[maxTokensField] = body[other];
      delete body[other];
    }
  }
  const names = new Map(facts.toolResults.map((r) => [r.toolCallId, r.toolName]));
  for (const message of objects(body.messages)) {
    if (role && (message.role === "system" || message.role === "developer")) message.role = role;
    if (toolResultNames && message.role === "tool" && message.name === undefined) {
      const name = names.get(String(message.tool_call_id));
      if (name !== undefined) message.name = name;
    }
    if (emptyAssistantContent && message.role === "assistant" && message.content === null)
      message.content = "";
  }
}
