import { describe, expect, it } from "vitest";
import { createSseParser, readSseStream, type SseEvent } from "@/components/chat/sse";

function parseChunks(chunks: string[], end = true): SseEvent[] {
  const out: SseEvent[] = [];
  const p = createSseParser((e) => out.push(e));
  for (const c of chunks) p.feed(c);
  if (end) p.end();
  return out;
}

describe("createSseParser", () => {
  it("parses named events with JSON data", () => {
    expect(
      parseChunks([
        'event: agent_start\ndata: {"type":"agent_start"}\n\n',
        "event: turn_start\ndata: {}\n\n",
      ]),
    ).toEqual([
      { event: "agent_start", data: '{"type":"agent_start"}' },
      { event: "turn_start", data: "{}" },
    ]);
  });

  it("gives the same result for every split of the input, including inside \\r\\n", () => {
    const text =
      'event: message_update\r\ndata: {"d":"a b"}\r\n\r\n: comment\r\nevent: x\ndata: 1\ndata: 2\n\nevent: y\rdata: z\r\r';
    const expected: SseEvent[] = [
      { event: "message_update", data: '{"d":"a b"}' },
      { event: "x", data: "1\n2" },
      { event: "y", data: "z" },
    ];
    expect(parseChunks([text])).toEqual(expected);
    for (let i = 0; i <= text.length; i++) {
      expect(parseChunks([text.slice(0, i), text.slice(i)])).toEqual(expected);
    }
    expect(parseChunks(text.split(""))).toEqual(expected);
  });

  it("emits an event as soon as its blank line arrives", () => {
    const out: SseEvent[] = [];
    const p = createSseParser((e) => out.push(e));
    p.feed("event: a\ndata: 1\n");
    expect(out).toEqual([]);
    p.feed("\n");
    expect(out).toEqual([{ event: "a", data: "1" }]);
  });

  it("defaults the event name to message, keeps ids, ignores comments, retry and empty data", () => {
    expect(parseChunks([":hi\nretry: 10\nid: 7\ndata:no-space\n\nevent: empty\n\ndata\n\n"])).toEqual([
      { event: "message", data: "no-space", id: "7" },
      { event: "message", data: "", id: "7" },
    ]);
  });

  it("strips a leading BOM and only one space after the colon", () => {
    expect(parseChunks(["\uFEFFdata:  two\n\n"])).toEqual([{ event: "message", data: " two" }]);
  });

  it("drops an unterminated event at end of stream", () => {
    expect(parseChunks(["event: a\ndata: 1\n\nevent: b\ndata: 2"])).toEqual([{ event: "a", data: "1" }]);
  });
});

describe("readSseStream", () => {
  it("decodes UTF-8 split across chunks", async () => {
    const bytes = new TextEncoder().encode('event: message_update\ndata: {"delta":"héllo ✓"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const out: SseEvent[] = [];
    await readSseStream(body, (e) => out.push(e));
    expect(out).toEqual([{ event: "message_update", data: '{"delta":"héllo ✓"}' }]);
  });
});
