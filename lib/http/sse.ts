/** Server-sent events framing for agent runs (docs/http-api.md "The event stream"). */
import type { RunEvent } from "@/lib/agent/session-run";

const encoder = new TextEncoder();

/**
 * The wire form of an event: `event: <type>\ndata: <json>\n\n`. `message_update` carries only its delta
 * (not the whole partial message, which would make a stream quadratic in its length).
 */
export function encodeSse(event: RunEvent): Uint8Array {
  let payload: unknown = event;
  if (event.type === "message_update") {
    const e = event.assistantMessageEvent;
    // The hot path (one event per token): the same bytes as below, without building and walking an object.
    if (e.type === "text_delta" || e.type === "thinking_delta" || e.type === "toolcall_delta") {
      return encoder.encode(
        `event: message_update\ndata: {"type":"message_update","assistantMessageEvent":{"type":"${e.type}","contentIndex":${e.contentIndex},"delta":${JSON.stringify(e.delta)}}}\n\n`,
      );
    }
    const slim: Record<string, unknown> = { type: e.type };
    if ("contentIndex" in e) slim.contentIndex = e.contentIndex;
    if ("delta" in e) slim.delta = e.delta;
    if (e.type === "toolcall_start") {
      const block = e.partial.content[e.contentIndex];
      if (block?.type === "toolCall") {
        slim.id = block.id;
        slim.name = block.name;
      }
    }
    payload = { type: "message_update", assistantMessageEvent: slim };
  }
  return encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(payload)}\n\n`);
}
