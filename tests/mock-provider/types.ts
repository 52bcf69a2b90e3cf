/**
 * Provider-neutral script types of the mock LLM provider. A script is a queue of {@link Turn}s; each
 * request to a provider endpoint consumes one turn and renders it in that provider's wire format.
 */
import { z } from "zod";

/** Token usage of a scripted turn, in pi's terms: `input` excludes cached tokens, `reasoning` is part of `output`. */
export const usageSchema = z.object({
  input: z.number().int().nonnegative().optional(),
  output: z.number().int().nonnegative().optional(),
  cacheRead: z.number().int().nonnegative().optional(),
  cacheWrite: z.number().int().nonnegative().optional(),
  reasoning: z.number().int().nonnegative().optional(),
});

/** One scripted tool call. `input` is sent as JSON, split into several argument deltas. */
export const toolCallSchema = z.object({
  id: z.string().optional(),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  /** Characters per argument delta (default: the JSON in 3 deltas), e.g. to stream a large input in many deltas. */
  chunkBytes: z.number().int().positive().optional(),
});

/** A scripted error answered instead of a stream: HTTP `status` with the provider's error JSON. */
export const turnErrorSchema = z.object({
  status: z.number().int().min(400).max(599),
  message: z.string(),
  /** Provider error type; defaults from the status (e.g. 400 `invalid_request_error`, 529 `overloaded_error`). */
  type: z.string().optional(),
});

/** One scripted model turn (see README.md). */
export const turnSchema = z.object({
  /** Answer text; an array is sent as one delta per element. */
  text: z.union([z.string(), z.array(z.string())]).optional(),
  /** Reasoning: an Anthropic `thinking` block or an OpenAI `reasoning` item with a summary. */
  thinking: z
    .object({
      text: z.union([z.string(), z.array(z.string())]),
      /** Anthropic `signature`; OpenAI `encrypted_content` (sent only when the request `include`s it). */
      signature: z.string().optional(),
    })
    .optional(),
  /** Anthropic `redacted_thinking` data (ignored by the OpenAI renderer). */
  redactedThinking: z.string().optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  /** Defaults to `toolUse` when there are tool calls, else `stop`. */
  stopReason: z.enum(["stop", "toolUse", "length"]).optional(),
  usage: usageSchema.optional(),
  error: turnErrorSchema.optional(),
  /** Milliseconds to wait between streamed events. */
  delayMs: z.number().nonnegative().optional(),
  /** Name of a gate: the stream pauses after its first content delta until `release(gate)`. */
  holdUntilReleased: z.string().min(1).optional(),
  /**
   * Where a gated stream pauses: after its first content delta (default), or right after the response headers,
   * before any byte of the body (a provider that answers 200 and then sends nothing).
   */
  holdAt: z.enum(["firstDelta", "headers"]).optional(),
  /**
   * A long answer without scripting it: `bytes` characters of `x` appended to `text` (same block), streamed in
   * deltas of `chunkBytes` characters (default 1024). The recorded turn keeps this spec, not the text.
   */
  bulkText: z
    .object({
      bytes: z.number().int().positive(),
      chunkBytes: z.number().int().positive().optional(),
    })
    .optional(),
});

export type Turn = z.infer<typeof turnSchema>;
export type TurnUsage = z.infer<typeof usageSchema>;
export type TurnToolCall = z.infer<typeof toolCallSchema>;
export type TurnError = z.infer<typeof turnErrorSchema>;

/** Which wire format a request was addressed to. */
export type ProviderKind = "anthropic" | "openai" | "openai-chat" | "unknown";

/** A request received on a provider endpoint, as recorded for assertions. */
export interface RecordedRequest {
  /** 1-based arrival order. */
  seq: number;
  provider: ProviderKind;
  method: string;
  path: string;
  /** Lower-cased header names; secrets (`authorization`, `x-api-key`, cookies, ...) removed. */
  headers: Record<string, string>;
  /** SHA-256 (hex) of the API key the request carried (`x-api-key` or bearer token), to check which key was used. */
  credentialSha256?: string;
  /** Parsed JSON body (`undefined` when there was none, the raw string when it was not JSON). */
  body: unknown;
  /** The body exactly as received (UTF-8 text), for byte-for-byte comparisons (e.g. with the context preview's payload). */
  rawBody?: string;
  /** HTTP status answered. */
  status: number;
  /** The request was rejected by the validator with this message (status 400). */
  validationError?: string;
  /** The scripted turn that answered it (not set for validation failures or 404s). */
  turn?: Turn;
  /** The client disconnected before the stream finished. */
  aborted?: boolean;
  /** When the stream's writes happened (see {@link StreamTiming}); set for streamed answers only. */
  timing?: StreamTiming;
}

/**
 * Wall-clock instants of a streamed answer, in epoch milliseconds with sub-millisecond precision
 * (`performance.timeOrigin + performance.now()`), so another process on the same machine can compare them
 * with its own clock (e.g. the bench's relay overhead: first delta written here → relayed by the app).
 */
export interface StreamTiming {
  /** The request reached the handler. */
  receivedAt: number;
  /** The first content delta (`content_block_delta` / `*.delta`) was handed to the socket. */
  firstDeltaAt?: number;
  /** The last content delta was handed to the socket. */
  lastDeltaAt?: number;
  /** Number of content-delta frames written. */
  deltas: number;
  /** The response was ended (its last bytes handed to the socket). */
  endedAt?: number;
}

/** The text answered when a request arrives with an empty queue. */
export const DEFAULT_TURN_TEXT = "(mock) no scripted turn";

/** Usage with defaults filled in. */
export interface ResolvedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

/** Fill usage defaults (10 input, 5 output, nothing cached). */
export function resolveUsage(usage: TurnUsage | undefined): ResolvedUsage {
  return {
    input: usage?.input ?? 10,
    output: usage?.output ?? 5,
    cacheRead: usage?.cacheRead ?? 0,
    cacheWrite: usage?.cacheWrite ?? 0,
    reasoning: usage?.reasoning ?? 0,
  };
}

/** Text chunks of a `string | string[]` field. */
export function chunksOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : value;
}

/** Default delta size of {@link Turn.bulkText} (characters). */
export const BULK_CHUNK_BYTES = 1024;

/** The text deltas of a turn: `text`'s chunks, then `bulkText`'s (one shared chunk string, the last one shorter). */
export function textChunksOf(turn: Turn): string[] {
  const chunks = [...chunksOf(turn.text)];
  const bulk = turn.bulkText;
  if (!bulk) return chunks;
  const size = bulk.chunkBytes ?? BULK_CHUNK_BYTES;
  const full = "x".repeat(size);
  for (let left = bulk.bytes; left > 0; left -= size) chunks.push(left >= size ? full : full.slice(0, left));
  return chunks;
}

/** The argument deltas of a scripted tool call: its JSON in `chunkBytes`-character pieces, else in 3 pieces. */
export function argumentPieces(call: TurnToolCall): string[] {
  const json = JSON.stringify(call.input);
  if (!call.chunkBytes) return splitInPieces(json);
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += call.chunkBytes) pieces.push(json.slice(i, i + call.chunkBytes));
  return pieces;
}

/** The stop reason of a turn with its default applied. */
export function stopReasonOf(turn: Turn): "stop" | "toolUse" | "length" {
  return turn.stopReason ?? (turn.toolCalls && turn.toolCalls.length > 0 ? "toolUse" : "stop");
}

/** Split a string into up to `parts` non-empty pieces (for argument deltas). */
export function splitInPieces(text: string, parts = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** A streamed server-sent event; `hold` marks the point where a gated turn pauses. */
export interface SseFrame {
  event: string;
  data: unknown;
  hold?: boolean;
}

/** A validation failure: the request is answered 400 with this message. */
export class ValidationError extends Error {}
