/**
 * Anthropic Messages wire format: request validation, SSE rendering of a scripted turn, error JSON.
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

const TOOL_ID = /^[a-zA-Z0-9_-]{1,64}$/;

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
};

/** Anthropic's error body: `{ type: "error", error: { type, message }, request_id }`. */
export function anthropicErrorBody(status: number, message: string, type?: string): unknown {
  return {
    type: "error",
    error: {
      type: type ?? ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"),
      message,
    },
    request_id: `req_mock_${Date.now().toString(36)}`,
  };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function blocksOf(content: unknown): Json[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** Options of the Anthropic validator. */
export interface AnthropicValidationOptions {
  /**
   * With thinking enabled, require the final assistant message of an ongoing tool loop to start with a
   * `thinking`/`redacted_thinking` block, as the real API does. Default true.
   */
  strictThinking?: boolean;
}

function checkTextBlocks(blocks: Json[], where: string): void {
  blocks.forEach((block, j) => {
    if (block.type === "text" && (typeof block.text !== "string" || block.text.length === 0)) {
      throw new ValidationError(`${where}.content.${j}.text: text content blocks must be non-empty`);
    }
    if (block.type === "tool_result" && Array.isArray(block.content)) {
      checkTextBlocks(block.content.filter(isObject), `${where}.content.${j}`);
    }
  });
}

/**
 * Reject a Messages request body the way the real API would (subset): required fields, alternating roles
 * starting with `user`, non-empty text, tool id syntax and uniqueness, every `tool_use` answered by a
 * `tool_result` first in the next user message (and no stray results), and thinking replay when enabled.
 * Throws {@link ValidationError}.
 */
export function validateAnthropicRequest(body: unknown, options: AnthropicValidationOptions = {}): void {
  if (!isObject(body)) throw new ValidationError("request body must be a JSON object");
  if (typeof body.model !== "string" || body.model === "") throw new ValidationError("model: Field required");
  if (typeof body.max_tokens !== "number") throw new ValidationError("max_tokens: Field required");
  if (!Array.isArray(body.messages)) throw new ValidationError("messages: Field required");
  if (body.system !== undefined && typeof body.system !== "string") {
    if (!Array.isArray(body.system)) throw new ValidationError("system: Input should be a valid list");
    body.system.filter(isObject).forEach((block, j) => {
      if (block.type === "text" && (typeof block.text !== "string" || block.text === "")) {
        throw new ValidationError(`system.${j}.text: text content blocks must be non-empty`);
      }
    });
  }
  const messages = body.messages as unknown[];
  if (messages.length === 0) throw new ValidationError("messages: at least one message is required");

  const seenToolIds = new Set<string>();
  let previousRole: string | undefined;
  messages.forEach((raw, i) => {
    const where = `messages.${i}`;
    if (!isObject(raw)) throw new ValidationError(`${where}: Input should be a valid dictionary`);
    const role = raw.role;
    if (role !== "user" && role !== "assistant") {
      throw new ValidationError(`${where}.role: Input should be 'user' or 'assistant'`);
    }
    if (i === 0 && role !== "user")
      throw new ValidationError('messages: first message must use the "user" role');
    if (role === previousRole) {
      throw new ValidationError(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`,
      );
    }
    previousRole = role;
    const isFinalAssistant = role === "assistant" && i === messages.length - 1;
    if (typeof raw.content === "string") {
      if (raw.content === "" && !isFinalAssistant) {
        throw new ValidationError(
          `${where}: all messages must have non-empty content except for the optional final assistant message`,
        );
      }
    } else if (!Array.isArray(raw.content)) {
      throw new ValidationError(`${where}.content: Field required`);
    } else if (raw.content.length === 0 && !isFinalAssistant) {
      throw new ValidationError(
        `${where}: all messages must have non-empty content except for the optional final assistant message`,
      );
    }
    const blocks = blocksOf(raw.content);
    if (typeof raw.content !== "string") checkTextBlocks(blocks, where);

    blocks.forEach((block, j) => {
      if (block.type === "tool_use") {
        if (role !== "assistant") {
          throw new ValidationError(
            `${where}.content.${j}: tool_use blocks can only appear in assistant messages`,
          );
        }
        const id = String(block.id ?? "");
        if (!TOOL_ID.test(id)) {
          throw new ValidationError(
            `${where}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`,
          );
        }
        if (seenToolIds.has(id))
          throw new ValidationError(`${where}.content.${j}: \`tool_use\` ids must be unique`);
        seenToolIds.add(id);
      }
      if (block.type === "tool_result") {
        if (role !== "user") {
          throw new ValidationError(
            `${where}.content.${j}: tool_result blocks can only appear in user messages`,
          );
        }
        if (!TOOL_ID.test(String(block.tool_use_id ?? ""))) {
          throw new ValidationError(
            `${where}.content.${j}.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`,
          );
        }
      }
    });

    // Every tool_use must be answered, first thing, in the next (user) message.
    if (role === "assistant") {
      const toolUseIds = blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id));
      const next = messages[i + 1];
      if (toolUseIds.length > 0 && next !== undefined) {
        const nextBlocks = isObject(next) ? blocksOf(next.content) : [];
        const leading: string[] = [];
        for (const b of nextBlocks) {
          if (b.type !== "tool_result") break;
          leading.push(String(b.tool_use_id));
        }
        const missing = toolUseIds.filter((id) => !leading.includes(id));
        if (missing.length > 0) {
          throw new ValidationError(
            `${where}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          );
        }
      }
    }
    // Every tool_result must answer a tool_use of the previous (assistant) message.
    if (role === "user") {
      const previous = i > 0 ? messages[i - 1] : undefined;
      const previousIds = new Set(
        (isObject(previous) ? blocksOf(previous.content) : [])
          .filter((b) => b.type === "tool_use")
          .map((b) => String(b.id)),
      );
      blocks.forEach((b, j) => {
        if (b.type === "tool_result" && !previousIds.has(String(b.tool_use_id))) {
          throw new ValidationError(
            `${where}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
      });
    }
  });

  const thinking = isObject(body.thinking) ? body.thinking.type : undefined;
  if ((options.strictThinking ?? true) && (thinking === "enabled" || thinking === "adaptive")) {
    // The final assistant message preceding the last tool_result set must start with a thinking block.
    const last = messages[messages.length - 1];
    const lastHasResults = isObject(last) && blocksOf(last.content).some((b) => b.type === "tool_result");
    const assistantIndex = messages.length - 2;
    const assistant = messages[assistantIndex];
    if (lastHasResults && isObject(assistant)) {
      const first = blocksOf(assistant.content)[0];
      if (first && first.type !== "thinking" && first.type !== "redacted_thinking") {
        throw new ValidationError(
          `messages.${assistantIndex}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`,
        );
      }
    }
  }
}

let messageCounter = 0;

/** Render a scripted turn as the SSE events of a streaming Messages response. */
export function renderAnthropicTurn(turn: Turn, body: unknown): SseFrame[] {
  const model = isObject(body) && typeof body.model === "string" ? body.model : "claude-mock";
  const usage = resolveUsage(turn.usage);
  messageCounter += 1;
  const id = `msg_mock${String(messageCounter).padStart(6, "0")}`;
  const frames: SseFrame[] = [];
  let held = false;
  /** Mark the first content delta as the hold point. */
  const delta = (index: number, d: Json): void => {
    const frame: SseFrame = {
      event: "content_block_delta",
      data: { type: "content_block_delta", index, delta: d },
    };
    if (!held && turn.holdUntilReleased) {
      frame.hold = true;
      held = true;
    }
    frames.push(frame);
  };

  frames.push({
    event: "message_start",
    data: {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: usage.cacheWrite,
          cache_read_input_tokens: usage.cacheRead,
          output_tokens: 1,
        },
      },
    },
  });
  frames.push({ event: "ping", data: { type: "ping" } });

  let index = 0;
  if (turn.thinking) {
    frames.push({
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
    });
    for (const piece of chunksOf(turn.thinking.text))
      delta(index, { type: "thinking_delta", thinking: piece });
    if (turn.thinking.signature !== undefined) {
      delta(index, { type: "signature_delta", signature: turn.thinking.signature });
    }
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index += 1;
  }
  if (turn.redactedThinking !== undefined) {
    frames.push({
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block: { type: "redacted_thinking", data: turn.redactedThinking },
      },
    });
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index += 1;
  }
  const text = textChunksOf(turn);
  if (text.length > 0) {
    frames.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
    });
    for (const piece of text) delta(index, { type: "text_delta", text: piece });
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index += 1;
  }
  for (const [n, call] of (turn.toolCalls ?? []).entries()) {
    const toolId = call.id ?? `toolu_mock${String(messageCounter).padStart(4, "0")}_${n}`;
    frames.push({
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: toolId, name: call.name, input: {} },
      },
    });
    // The real API opens with an empty partial_json.
    frames.push({
      event: "content_block_delta",
      data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: "" } },
    });
    for (const piece of argumentPieces(call)) {
      delta(index, { type: "input_json_delta", partial_json: piece });
    }
    frames.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index += 1;
  }
  if (turn.holdUntilReleased && !held) frames[0].hold = true;

  const stop = stopReasonOf(turn);
  frames.push({
    event: "message_delta",
    data: {
      type: "message_delta",
      delta: {
        stop_reason: stop === "toolUse" ? "tool_use" : stop === "length" ? "max_tokens" : "end_turn",
        stop_sequence: null,
      },
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_read_input_tokens: usage.cacheRead,
        output_tokens: usage.output,
      },
    },
  });
  frames.push({ event: "message_stop", data: { type: "message_stop" } });
  return frames;
}
