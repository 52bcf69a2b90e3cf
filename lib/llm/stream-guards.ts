/**
 * Guards of one streamed model response (Strata's; pi-ai has none): a per-turn cap on the output streamed
 * (text, thinking and tool-call arguments, in UTF-8 bytes), an idle timeout on the provider's response, and a
 * partial parse of tool-call arguments whose total work is linear in their length (pi-ai's providers re-parse the
 * whole argument JSON on every delta: `parseStreamingJson(block.partialJson)`, quadratic in it). Edge-safe.
 */
import { parsePartialJson } from "ai";
import { formatBytes, formatDuration } from "@/lib/exec/limits";
import { utf8Length } from "@/lib/vfs/limits";
import type { Env } from "./models";

/** Default of `STRATA_MAX_TURN_OUTPUT_BYTES`: 8 MiB of text, thinking and tool-call arguments per turn. */
export const DEFAULT_MAX_TURN_OUTPUT_BYTES = 8 * 1024 * 1024;
/** Default of `STRATA_STREAM_IDLE_MS`: 120 s without a byte from the provider ends the response. */
export const DEFAULT_STREAM_IDLE_MS = 120_000;
/** The longest delay a timer honours (2^31-1 ms); a longer idle window is clamped to it. */
const MAX_IDLE_MS = 2 ** 31 - 1;

/** The guards in effect for one response. */
export interface StreamLimits {
  /** Most UTF-8 bytes of text, thinking and tool-call arguments one response may stream. */
  maxOutputBytes: number;
  /** Longest silence of the provider (ms), before the response headers or between body bytes. */
  idleMs: number;
}

/** A positive integer from `value`, else `fallback`. */
function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value?.trim() || Number.NaN);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The limits of the server environment `env`: `STRATA_MAX_TURN_OUTPUT_BYTES` (bytes, default
 * {@link DEFAULT_MAX_TURN_OUTPUT_BYTES}) and `STRATA_STREAM_IDLE_MS` (ms, default {@link DEFAULT_STREAM_IDLE_MS},
 * at most 2^31-1). A value that is not a positive integer gives the default. Never throws.
 */
export function streamLimits(env: Env): StreamLimits {
  return {
    maxOutputBytes: positiveInt(env.STRATA_MAX_TURN_OUTPUT_BYTES, DEFAULT_MAX_TURN_OUTPUT_BYTES),
    idleMs: Math.min(positiveInt(env.STRATA_STREAM_IDLE_MS, DEFAULT_STREAM_IDLE_MS), MAX_IDLE_MS),
  };
}

/** The `errorMessage` of a response cut at the output cap (its `stopReason` is `length`). */
export function outputCapMessage(capBytes: number): string {
  return (
    `The answer was cut off after ${formatBytes(capBytes)}, the most one turn may stream ` +
    "(text, thinking and tool-call arguments; STRATA_MAX_TURN_OUTPUT_BYTES). What arrived up to the cut is kept. " +
    "Ask for a shorter answer, or for the work in smaller steps (for example one file per turn)."
  );
}

/**
 * The `errorMessage` of a response the provider went silent on (`stopReason` `error`). It says "timed out", which
 * the auto-retry's transient-error test matches (lib/llm/provider-errors.ts), so the turn is retried.
 */
export function idleTimeoutMessage(idleMs: number): string {
  return (
    `The provider sent nothing for ${formatDuration(idleMs)}, so the response timed out ` +
    "(STRATA_STREAM_IDLE_MS). What arrived before is kept."
  );
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, never splitting a surrogate pair. */
export function utf8Prefix(text: string, maxBytes: number): string {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let size = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    let units = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        size = 4;
        units = 2;
      }
    }
    if (bytes + size > maxBytes) return text.slice(0, i);
    bytes += size;
    i += units - 1;
  }
  return text;
}

/** The output cap of one response: counts the UTF-8 bytes of the deltas it is given. */
export class OutputBudget {
  private used = 0;
  /** A delta went past the cap: the response must end (with `stopReason` `length`). */
  exceeded = false;

  constructor(readonly capBytes: number) {}

  /**
   * The part of `delta` that fits: all of it while the total stays within the cap; past it, the longest prefix that
   * fits (then {@link exceeded} is set and every later delta gives "").
   */
  take(delta: string): string {
    if (this.exceeded) return "";
    const bytes = utf8Length(delta);
    if (this.used + bytes <= this.capBytes) {
      this.used += bytes;
      return delta;
    }
    this.exceeded = true;
    const kept = utf8Prefix(delta, this.capBytes - this.used);
    this.used += utf8Length(kept);
    return kept;
  }
}

/**
 * The idle timeout of one response: `onIdle` runs once when {@link touch} was not called for `idleMs` (counted
 * from construction). One timer at a time; a touch only records the time (cheap per chunk).
 */
export class IdleWatch {
  private last = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    this.arm(idleMs);
  }

  /** The provider sent something (response headers or body bytes). */
  touch(): void {
    this.last = Date.now();
  }

  /** No more timeouts (the response ended). */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const silent = Date.now() - this.last;
      if (silent >= this.idleMs) this.onIdle();
      else this.arm(this.idleMs - silent);
    }, ms);
  }
}

/** `response` with a body that calls `touch` whenever bytes arrive (and when it ends). */
export function touchingResponse(response: Response, touch: () => void): Response {
  if (!response.body) return response;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        touch();
        controller.enqueue(chunk);
      },
      flush() {
        touch();
      },
    }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** Tool-call arguments as pi stores them: a JSON object (a string is parsed first), else `{}`. */
export function asArguments(input: unknown): Record<string, unknown> {
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

/** The best-effort arguments of a partial JSON text (the AI SDK's `parsePartialJson`), undefined when none. */
export async function parseArgumentsJson(json: string): Promise<Record<string, unknown> | undefined> {
  const parsed = await parsePartialJson(json);
  return parsed.value === undefined ? undefined : asArguments(parsed.value);
}

/** Up to this many characters a tool call's argument JSON is re-parsed on every delta, as pi does. */
export const EAGER_PARSE_CHARS = 4096;

/**
 * The argument JSON of one streaming tool call, parsed as it grows: on every delta while it is at most
 * {@link EAGER_PARSE_CHARS} long, then only when it has doubled since the last parse, so the characters parsed
 * over a whole call stay below `EAGER_PARSE_CHARS²/2 + 2 × its length`, plus one parse of it in {@link flush} (pi
 * re-parses on every delta: a 512 KiB argument in 64-byte deltas is 2 GB of parsing, which held the server for
 * over a minute). The final arguments of a complete call come from the provider's input, not from here.
 */
export class PartialArguments {
  private json = "";
  private parsedLength = 0;

  constructor(
    private readonly parse: (
      json: string,
    ) => Promise<Record<string, unknown> | undefined> = parseArgumentsJson,
  ) {}

  /** Append `delta`; returns the re-parsed arguments when a parse is due, else undefined (no parse). */
  append(delta: string): Promise<Record<string, unknown> | undefined> | undefined {
    this.json += delta;
    if (this.json.length > EAGER_PARSE_CHARS && this.json.length < 2 * this.parsedLength) return undefined;
    return this.reparse();
  }

  /** Parse what arrived since the last parse (for the arguments a cut-off response keeps); undefined if nothing. */
  flush(): Promise<Record<string, unknown> | undefined> | undefined {
    return this.json.length === this.parsedLength ? undefined : this.reparse();
  }

  private reparse(): Promise<Record<string, unknown> | undefined> {
    this.parsedLength = this.json.length;
    return this.parse(this.json);
  }
}
