/**
 * OpenAI Responses wire format: request validation, SSE rendering of a scripted turn, error JSON.
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

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ["invalid_request_error", null],
  401: ["invalid_request_error", "invalid_api_key"],
  403: ["invalid_request_error", "unsupported_country_region_territory"],
  404: ["invalid_request_error", "model_not_found"],
  429: ["rate_limit_error", "rate_limit_exceeded"],
  500: ["server_error", null],
  503: ["server_error", null],
};

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function openaiErrorBody(status: number, message: string, type?: string): unknown {
  const [defaultType, code] = ERROR_TYPES[status] ?? [
    status >= 500 ? "server_error" : "invalid_request_error",
    null,
  ];
  return { error: { message, type: type ?? defaultType, param: null, code } };
}

/** What the mock remembers about an output item it emitted (to resolve `item_reference`s and check replays). */
interface KnownItem {
  item: Json;
  /** Id of the reasoning item emitted before this item in the same response, if any. */
  reasoningId?: string;
}

/**
 * State shared by the OpenAI endpoint across requests: emitted items by id and outputs by response id,
 * so `item_reference` and `previous_response_id` resolve like against a real stored response.
 */
export class OpenAIState {
  readonly items = new Map<string, KnownItem>();
  readonly responses = new Map<string, Json[]>();
  private counter = 0;

  /** A fresh id suffix. */
  next(): string {
    this.counter += 1;
    return `mock${String(this.counter).padStart(6, "0")}`;
  }

  /** Forget everything. */
  clear(): void {
    this.items.clear();
    this.responses.clear();
  }
}

/**
 * Reject a Responses request body the way the real API would (subset): `model` and `input` present, known
 * `previous_response_id`, every `function_call` answered by a later `function_call_output` with the same
 * `call_id` and every output preceded by its call, and a replayed `function_call` that the mock emitted after
 * a reasoning item must be accompanied by that reasoning item. Throws {@link ValidationError}.
 */
export function validateOpenAIRequest(body: unknown, state: OpenAIState): void {
  if (!isObject(body)) throw new ValidationError("request body must be a JSON object");
  if (typeof body.model !== "string" || body.model === "") {
    throw new ValidationError("Missing required parameter: 'model'.");
  }
  if (body.input === undefined) throw new ValidationError("Missing required parameter: 'input'.");
  if (typeof body.input === "string") return;
  if (!Array.isArray(body.input))
    throw new ValidationError("Invalid type for 'input': expected a string or array.");

  const items: Json[] = [];
  if (typeof body.previous_response_id === "string") {
    const previous = state.responses.get(body.previous_response_id);
    if (!previous) {
      throw new ValidationError(`Previous response with id '${body.previous_response_id}' not found.`);
    }
    items.push(...previous);
  }
  for (const [i, raw] of body.input.entries()) {
    if (!isObject(raw)) throw new ValidationError(`Invalid type for 'input[${i}]': expected an object.`);
    if (raw.type === "item_reference") {
      // Unknown references are accepted: the mock cannot know what a real store holds.
      const known = typeof raw.id === "string" ? state.items.get(raw.id) : undefined;
      items.push(known ? known.item : raw);
    } else {
      items.push(raw);
    }
  }

  const calls = new Set<string>();
  const outputs = new Set<string>();
  const presentIds = new Set(
    items.map((item) => item.id).filter((id): id is string => typeof id === "string"),
  );
  for (const [i, item] of items.entries()) {
    if (item.type === "message" || (item.type === undefined && typeof item.role === "string")) {
      const content = item.content;
      if (Array.isArray(content)) {
        for (const part of content.filter(isObject)) {
          if ((part.type === "input_text" || part.type === "output_text") && typeof part.text !== "string") {
            throw new ValidationError(`Missing required parameter: 'input[${i}].content[].text'.`);
          }
        }
      }
    }
    if (item.type === "function_call") {
      const callId = String(item.call_id ?? "");
      if (callId === "") throw new ValidationError(`Missing required parameter: 'input[${i}].call_id'.`);
      if (typeof item.name !== "string")
        throw new ValidationError(`Missing required parameter: 'input[${i}].name'.`);
      if (typeof item.arguments !== "string") {
        throw new ValidationError(`Invalid type for 'input[${i}].arguments': expected a string.`);
      }
      calls.add(callId);
      const known = typeof item.id === "string" ? state.items.get(item.id) : undefined;
      if (known?.reasoningId && !presentIds.has(known.reasoningId)) {
        throw new ValidationError(
          `Item '${String(item.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${known.reasoningId}'.`,
        );
      }
    }
    if (item.type === "function_call_output") {
      const callId = String(item.call_id ?? "");
      if (!calls.has(callId)) {
        throw new ValidationError(`No tool call found for function call output with call_id ${callId}.`);
      }
      if (item.output === undefined)
        throw new ValidationError(`Missing required parameter: 'input[${i}].output'.`);
      outputs.add(callId);
    }
  }
  for (const callId of calls) {
    if (!outputs.has(callId)) throw new ValidationError(`No tool output found for function call ${callId}.`);
  }
}

/** Render a scripted turn as the SSE events of a streaming Responses response, remembering emitted items. */
export function renderOpenAITurn(turn: Turn, body: unknown, state: OpenAIState): SseFrame[] {
  const request = isObject(body) ? body : {};
  const model = typeof request.model === "string" ? request.model : "gpt-mock";
  const include = Array.isArray(request.include) ? request.include : [];
  const withEncrypted = include.includes("reasoning.encrypted_content");
  const usage = resolveUsage(turn.usage);
  const responseId = `resp_${state.next()}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const frames: SseFrame[] = [];
  let sequence = 0;
  let held = false;
  const push = (type: string, fields: Json, isDelta = false): void => {
    const frame: SseFrame = { event: type, data: { type, sequence_number: sequence, ...fields } };
    sequence += 1;
    if (isDelta && !held && turn.holdUntilReleased) {
      frame.hold = true;
      held = true;
    }
    frames.push(frame);
  };
  const responseObject = (status: string, output: Json[], extra: Json = {}): Json => ({
    id: responseId,
    object: "response",
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model,
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: request.reasoning ?? { effort: null, summary: null },
    store: request.store ?? true,
    temperature: request.temperature ?? 1,
    text: request.text ?? { format: { type: "text" } },
    tool_choice: request.tool_choice ?? "auto",
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: "disabled",
    usage: null,
    metadata: request.metadata ?? {},
    ...extra,
  });

  push("response.created", { response: responseObject("in_progress", []) });
  push("response.in_progress", { response: responseObject("in_progress", []) });

  const output: Json[] = [];
  let reasoningId: string | undefined;
  if (turn.thinking) {
    const id = `rs_${state.next()}`;
    reasoningId = id;
    const outputIndex = output.length;
    const encrypted = withEncrypted ? { encrypted_content: turn.thinking.signature ?? `enc_${id}` } : {};
    push("response.output_item.added", {
      output_index: outputIndex,
      item: { id, type: "reasoning", summary: [], ...encrypted },
    });
    const pieces = chunksOf(turn.thinking.text);
    const full = pieces.join("");
    push("response.reasoning_summary_part.added", {
      item_id: id,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
    for (const piece of pieces) {
      push(
        "response.reasoning_summary_text.delta",
        { item_id: id, output_index: outputIndex, summary_index: 0, delta: piece },
        true,
      );
    }
    push("response.reasoning_summary_text.done", {
      item_id: id,
      output_index: outputIndex,
      summary_index: 0,
      text: full,
    });
    push("response.reasoning_summary_part.done", {
      item_id: id,
      output_index: outputIndex,
      summary_index: 0,
      part: { type: "summary_text", text: full },
    });
    const item = { id, type: "reasoning", summary: [{ type: "summary_text", text: full }], ...encrypted };
    push("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
  }

  const text = textChunksOf(turn);
  if (text.length > 0) {
    const id = `msg_${state.next()}`;
    const outputIndex = output.length;
    const full = text.join("");
    push("response.output_item.added", {
      output_index: outputIndex,
      item: { id, type: "message", status: "in_progress", content: [], role: "assistant" },
    });
    push("response.content_part.added", {
      item_id: id,
      output_index: outputIndex,
      content_index: 0,
      part: { type: "output_text", annotations: [], logprobs: [], text: "" },
    });
    for (const piece of text) {
      push(
        "response.output_text.delta",
        { item_id: id, output_index: outputIndex, content_index: 0, delta: piece, logprobs: [] },
        true,
      );
    }
    push("response.output_text.done", {
      item_id: id,
      output_index: outputIndex,
      content_index: 0,
      text: full,
      logprobs: [],
    });
    const part = { type: "output_text", annotations: [], logprobs: [], text: full };
    push("response.content_part.done", { item_id: id, output_index: outputIndex, content_index: 0, part });
    const item = { id, type: "message", status: "completed", content: [part], role: "assistant" };
    push("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
  }

  for (const call of turn.toolCalls ?? []) {
    const id = `fc_${state.next()}`;
    const callId = call.id ?? `call_${state.next()}`;
    const outputIndex = output.length;
    const args = JSON.stringify(call.input);
    push("response.output_item.added", {
      output_index: outputIndex,
      item: {
        id,
        type: "function_call",
        status: "in_progress",
        arguments: "",
        call_id: callId,
        name: call.name,
      },
    });
    for (const piece of argumentPieces(call)) {
      push(
        "response.function_call_arguments.delta",
        { item_id: id, output_index: outputIndex, delta: piece },
        true,
      );
    }
    push("response.function_call_arguments.done", {
      item_id: id,
      output_index: outputIndex,
      arguments: args,
    });
    const item = {
      id,
      type: "function_call",
      status: "completed",
      arguments: args,
      call_id: callId,
      name: call.name,
    };
    push("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
    state.items.set(id, { item, reasoningId });
  }
  for (const item of output) {
    if (item.type !== "function_call") state.items.set(String(item.id), { item });
  }
  state.responses.set(responseId, output);
  if (turn.holdUntilReleased && !held) frames[0].hold = true;

  const wireUsage = {
    input_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.cacheRead + usage.cacheWrite + usage.output,
  };
  if (stopReasonOf(turn) === "length") {
    push("response.incomplete", {
      response: responseObject("incomplete", output, {
        incomplete_details: { reason: "max_output_tokens" },
        usage: wireUsage,
      }),
    });
  } else {
    push("response.completed", { response: responseObject("completed", output, { usage: wireUsage }) });
  }
  return frames;
}
