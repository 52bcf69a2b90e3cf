/** Server-sent events framing for agent runs (docs/http-api.md "The event stream", docs/runs.md "The wire"). */
import type { RunEvent } from "@/lib/agent-session/session-run";
import { eventData } from "@/lib/runs/wire";

const encoder = new TextEncoder();

/**
 * One SSE frame: `id: <seq>\nevent: <type>\ndata: <data>\n\n` (no `id:` line without `seq`). `data` is one line
 * of JSON (JSON text never holds a raw newline).
 */
export function sseFrame(type: string, data: string, seq?: number): Uint8Array {
  return encoder.encode(`${seq === undefined ? "" : `id: ${seq}\n`}event: ${type}\ndata: ${data}\n\n`);
}

/**
 * The wire form of an event: `id: <seq>\nevent: <type>\ndata: <json>\n\n` (`seq`: the event's number in its
 * run's log, 1, 2, 3…; omitted → no `id:` line). `message_update` carries only its delta (lib/runs/wire.ts).
 */
export function encodeSse(event: RunEvent, seq?: number): Uint8Array {
  return sseFrame(event.type, eventData(event), seq);
}

/** An SSE comment (parsers skip it): the first byte of a stream, and the keep-alive every 15 s. */
export function sseComment(text: string): Uint8Array {
  return encoder.encode(`: ${text}\n\n`);
}

/** The response headers of every run event stream. */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
} as const;

/** How often a run event stream sends `: keep-alive` while no event comes (ms). */
export const SSE_KEEP_ALIVE_MS = 15_000;
