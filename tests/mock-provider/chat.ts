/**
 * OpenAI Chat Completions wire format (`POST /v1/chat/completions`, the API of OpenAI's `.chat()` models, of
 * OpenAI-compatible servers and of Mistral): request validation and SSE rendering of a scripted turn. Frames are
 * `data:` lines without an event name and the stream ends with `data: [DONE]`, as OpenAI sends them.
 */
import {
  argumentPieces,
  chunksOf,
  resolveUsage,
  type SseFrame,
  stopReasonOf,
  type Turn,
  textChunksOf,
  ValidationError,
} from "./types";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The event name of Chat Completions frames: none (`data:` only); `[DONE]` is sent as raw text. */
export const CHAT_FRAME = "";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

/**
 * Reject what OpenAI's Chat Completions API rejects (400 with its error JSON): no `model`, no or empty
 * `messages`, an unknown role, an assistant message with neither content nor tool calls, a tool message whose
 * `tool_call_id` does not answer a call of the assistant message before its run of tool messages, an unanswered
 * call, and `tools` that is not an array.
 */
export function validateChatRequest(body: unknown): void {
  if (!isObject(body)) throw new ValidationError("the request body must be a JSON object");
  if (typeof body.model !== "string" || body.model === "")
    throw new ValidationError("you must provide a model parameter");
  if (body.tools !== undefined && !Array.isArray(body.tools))
    throw new ValidationError("Invalid type for 'tools': expected an array");
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    throw new ValidationError("'messages' must contain at least one message");
  let pending = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (!isObject(message) || typeof message.role !== "string" || !ROLES.has(message.role))
      throw new ValidationError(`Invalid value for 'messages[${index}].role'`);
    if (message.role === "tool") {
      const id = String(message.tool_call_id);
      if (!pending.has(id))
        throw new ValidationError(
          `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[${index}])`,
        );
      pending.delete(id);
      continue;
    }
    if (pending.size > 0)
      throw new ValidationError(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(", ")}`,
      );
    if (message.role === "assistant") {
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isObject) : [];
      const content = message.content;
      const empty = content === null || content === undefined || content === "";
      if (empty && calls.length === 0)
        throw new ValidationError(`messages[${index}]: an assistant message needs content or tool_calls`);
      pending = new Set(calls.map((call) => String(call.id)));
    }
  }
}

/** One Chat Completions streaming chunk. */
function chunk(id: string, model: string, choice: Json | null, extra: Json = {}): SseFrame {
  return {
    event: CHAT_FRAME,
    data: {
      id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: choice ? [{ index: 0, ...choice }] : [],
      ...extra,
    },
  };
}

/**
 * The frames of one scripted turn: the role, `reasoning_content` deltas for `thinking`, content deltas for
 * `text`, each tool call as a first delta with id and name then its arguments in pieces, the finish reason,
 * then (with `stream_options.include_usage`) a usage chunk, then `[DONE]`.
 */
export function renderChatTurn(turn: Turn, body: unknown, id: string): SseFrame[] {
  const request = isObject(body) ? body : {};
  const model = typeof request.model === "string" ? request.model : "chat-mock";
  const frames: SseFrame[] = [];
  let held = false;
  const delta = (fields: Json, isDelta = true) => {
    const frame = chunk(id, model, { delta: fields, finish_reason: null });
    if (isDelta && !held && turn.holdUntilReleased) {
      frame.hold = true;
      held = true;
    }
    frames.push(frame);
  };
  delta({ role: "assistant", content: "" }, false);
  for (const piece of chunksOf(turn.thinking?.text)) delta({ reasoning_content: piece });
  for (const piece of textChunksOf(turn)) delta({ content: piece });
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const callId = call.id ?? `call_${id}_${index}`;
    delta({
      tool_calls: [{ index, id: callId, type: "function", function: { name: call.name, arguments: "" } }],
    });
    for (const piece of argumentPieces(call))
      delta({ tool_calls: [{ index, function: { arguments: piece } }] });
  }
  const stop = stopReasonOf(turn);
  const finish = stop === "toolUse" ? "tool_calls" : stop === "length" ? "length" : "stop";
  frames.push(chunk(id, model, { delta: {}, finish_reason: finish }));
  const options = isObject(request.stream_options) ? request.stream_options : {};
  if (options.include_usage === true) {
    const usage = resolveUsage(turn.usage);
    const prompt = usage.input + usage.cacheRead;
    frames.push(
      chunk(id, model, null, {
        usage: {
          prompt_tokens: prompt,
          completion_tokens: usage.output,
          total_tokens: prompt + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cacheRead },
          completion_tokens_details: { reasoning_tokens: usage.reasoning },
        },
      }),
    );
  }
  frames.push({ event: CHAT_FRAME, data: "[DONE]" });
  return frames;
}

/** Whether a chunk's data carries content (text, reasoning or tool-call arguments): it counts as a delta. */
export function isChatDelta(data: unknown): boolean {
  if (!isObject(data) || !Array.isArray(data.choices)) return false;
  const delta = (data.choices[0] as { delta?: Json } | undefined)?.delta;
  return !!delta && (!!delta.content || !!delta.reasoning_content || Array.isArray(delta.tool_calls));
}
