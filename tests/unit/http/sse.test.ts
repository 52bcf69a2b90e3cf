/** The SSE framing of run events: `message_update` carries only its delta; the per-token fast path writes the same bytes. */
import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/agent-session/session-run";
import { encodeSse } from "@/lib/http/sse";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";

const partial: AssistantMessage = {
  role: "assistant",
  content: [
    { type: "text", text: "a" },
    { type: "toolCall", id: "toolu_1", name: "read", arguments: {} },
  ],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 1,
};

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const update = (e: Record<string, unknown>): RunEvent =>
  ({ type: "message_update", message: partial, assistantMessageEvent: { ...e, partial } }) as RunEvent;

describe("encodeSse", () => {
  it.each([
    ["text_delta", 0, 'he said "hi"\n\\ \u2028 \ud83d\ude00'],
    ["thinking_delta", 3, "x"],
    ["toolcall_delta", 1, '{"path":'],
  ])("%s: the slim JSON, byte for byte", (type, contentIndex, delta) => {
    const text = decode(encodeSse(update({ type, contentIndex, delta })));
    expect(text).toBe(
      `event: message_update\ndata: ${JSON.stringify({
        type: "message_update",
        assistantMessageEvent: { type, contentIndex, delta },
      })}\n\n`,
    );
    const data = JSON.parse(text.slice(text.indexOf("data: ") + 6)) as { assistantMessageEvent: unknown };
    expect(data.assistantMessageEvent).toEqual({ type, contentIndex, delta });
  });

  it("toolcall_start names the call; other events are sent whole", () => {
    expect(decode(encodeSse(update({ type: "toolcall_start", contentIndex: 1 })))).toBe(
      'event: message_update\ndata: {"type":"message_update","assistantMessageEvent":{"type":"toolcall_start","contentIndex":1,"id":"toolu_1","name":"read"}}\n\n',
    );
    expect(decode(encodeSse({ type: "error", message: "boom" }))).toBe(
      'event: error\ndata: {"type":"error","message":"boom"}\n\n',
    );
  });

  it("with a seq: the id line first (the run log's number, what Last-Event-ID carries back)", () => {
    expect(decode(encodeSse({ type: "run_end", outcome: "done" }, 42))).toBe(
      'id: 42\nevent: run_end\ndata: {"type":"run_end","outcome":"done"}\n\n',
    );
    expect(decode(encodeSse(update({ type: "text_delta", contentIndex: 0, delta: "x" }), 7))).toBe(
      'id: 7\nevent: message_update\ndata: {"type":"message_update","assistantMessageEvent":{"type":"text_delta","contentIndex":0,"delta":"x"}}\n\n',
    );
  });
});
