/**
 * The wire form of a run event's payload (the SSE `data:` JSON, also stored as `run_events.data`):
 * `message_update` carries only its delta (not the whole partial message, which would make a stream quadratic
 * in its length); every other event is sent whole.
 */
import type { RunEvent } from "@/lib/agent-session/session-run";

/** Token deltas: consecutive ones of the same type and content index are merged by the event log. */
export const DELTA_TYPES = new Set(["text_delta", "thinking_delta", "toolcall_delta"]);

/** The JSON text of `event` as sent and stored. */
export function eventData(event: RunEvent): string {
  if (event.type !== "message_update") return JSON.stringify(event);
  const e = event.assistantMessageEvent;
  // The hot path (one event per token): the same bytes as below, without building and walking an object.
  if (e.type === "text_delta" || e.type === "thinking_delta" || e.type === "toolcall_delta")
    return `{"type":"message_update","assistantMessageEvent":{"type":"${e.type}","contentIndex":${e.contentIndex},"delta":${JSON.stringify(e.delta)}}}`;
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
  return JSON.stringify({ type: "message_update", assistantMessageEvent: slim });
}
