import { describe, expect, it } from "vitest";
import type { ChatAction } from "@/components/chat/reduce-events";
import { consumeRunStream } from "@/components/chat/run-stream";

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
