import { describe, expect, it } from "vitest";
import { type ChatAction, initialChatState, reduceChat } from "@/components/chat/reduce-events";
import { applyWhile, consumeRunStream, createRunEventHandler } from "@/components/chat/run-stream";
import type { UserMessage } from "@/lib/llm/types";

const body = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });

describe("consumeRunStream", () => {
  it("skips the opening comment, applies agent events, hands queue_returned texts to the callback", async () => {
    const applied: ChatAction[] = [];
    const returned: string[][] = [];
    const result = await consumeRunStream(
      body(
        ': strata\n\nevent: queue_returned\ndata: {"type":"queue_returned","texts":["a","b"]}\n\n' +
          'event: agent_start\ndata: {"type":"agent_start"}\n\n' +
          'event: queue_update\ndata: {"type":"queue_update","steering":[],"followUp":[]}\n\n',
      ),
      (action) => {
        applied.push(action);
        return null;
      },
      undefined,
      (texts) => returned.push(texts),
    );
    expect(returned).toEqual([["a", "b"]]);
    expect(applied).toEqual([{ type: "agent_start" }, { type: "queue_update", steering: [], followUp: [] }]);
    expect(result).toEqual({ compacted: false });
  });
});

describe("applyWhile: a finished run's late events and the next prompt", () => {
  const user = (text: string): UserMessage => ({ role: "user", content: text, timestamp: 2 });

  it("an earlier stream's run_end after the next prompt was sent leaves that prompt's message single", () => {
    let state = initialChatState([user("first")]);
    const apply = (action: ChatAction) => {
      const prev = state;
      state = reduceChat(state, action);
      return prev;
    };
    let seq = 1;
    const first = createRunEventHandler(
      applyWhile(
        apply,
        (mine = 1) => mine === seq,
        () => state,
      ),
    );
    first.handle({ event: "agent_end", data: '{"type":"agent_end"}' });
    // The user sends the next prompt before the first stream's run_end arrives.
    seq = 2;
    apply({ type: "local_prompt", text: "And now?", timestamp: 2 });
    first.handle({ event: "run_end", data: '{"type":"run_end","outcome":"done"}' });
    expect(state.pendingUserIndex).toBe(1);
    expect(state.running).toBe(true);
    apply({ type: "message_start", message: user("And now?") });
    expect(state.messages).toEqual([user("first"), user("And now?")]);

    // Without the guard (what happened before): the late run_end dropped the pending index, the echo was appended.
    let unguarded = reduceChat(initialChatState([user("first")]), {
      type: "local_prompt",
      text: "And now?",
      timestamp: 2,
    });
    unguarded = reduceChat(unguarded, { type: "run_end", outcome: "done" });
    unguarded = reduceChat(unguarded, { type: "message_start", message: user("And now?") });
    expect(unguarded.messages).toEqual([user("first"), user("And now?"), user("And now?")]);
  });
});
