/**
 * The guards of one streamed response (lib/llm/stream-guards.ts) and `streamAssistant` under them, against the mock
 * provider: the per-turn output cap (`STRATA_MAX_TURN_OUTPUT_BYTES`) ends a turn with `length` and keeps exactly the
 * bytes up to the cap; a provider silent for `STRATA_STREAM_IDLE_MS` (before the first body byte or mid-stream) ends
 * it with a retryable error; tool-call arguments are re-parsed with bounded work (counted, not timed); and the
 * event loop gets turns while an answer that has already arrived is processed.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { isRetryableError } from "@/lib/agent-session/auto-retry";
import type { AssistantMessageEvent } from "@/lib/llm/events";
import { type Model, resolveModel } from "@/lib/llm/models";
import { isTransientError } from "@/lib/llm/provider-errors";
import { streamAssistant } from "@/lib/llm/stream";
import {
  DEFAULT_MAX_TURN_OUTPUT_BYTES,
  DEFAULT_STREAM_IDLE_MS,
  IdleWatch,
  idleTimeoutMessage,
  OutputBudget,
  outputCapMessage,
  PartialArguments,
  streamLimits,
  utf8Prefix,
} from "@/lib/llm/stream-guards";
import type { AssistantMessage, ToolDeclaration } from "@/lib/llm/types";
import { type MockProvider, startMockProvider } from "@/tests/mock-provider";
import { collect, mockEnv, user } from "./helpers";

let mock: MockProvider;
let model: Model;
beforeAll(async () => {
  mock = await startMockProvider();
  model = resolveModel("anthropic/claude-sonnet-4-5", mockEnv(mock))!;
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

const write: ToolDeclaration = {
  name: "write",
  description: "Write a file",
  parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
};

const run = (
  env: Record<string, string> = {},
  options: Partial<Parameters<typeof streamAssistant>[2]> = {},
) =>
  collect(
    streamAssistant(
      model,
      { systemPrompt: "", messages: [user("hi")], tools: [write] },
      { env: { ...mockEnv(mock), ...env }, ...options },
    ),
  );

const final = (events: AssistantMessageEvent[]): AssistantMessage => {
  const last = events.at(-1)!;
  if (last.type === "done") return last.message;
  if (last.type === "error") return last.error;
  throw new Error(`stream ended with ${last.type}`);
};
const deltas = (events: AssistantMessageEvent[], type: string) =>
  events.flatMap((e) => (e.type === type && "delta" in e ? [e.delta] : []));

describe("streamLimits", () => {
  it("reads both variables, and gives the default for anything but a positive integer", () => {
    expect(streamLimits({})).toEqual({ maxOutputBytes: 8 * 1024 * 1024, idleMs: 120_000 });
    expect(DEFAULT_MAX_TURN_OUTPUT_BYTES).toBe(8_388_608);
    expect(DEFAULT_STREAM_IDLE_MS).toBe(120_000);
    expect(streamLimits({ STRATA_MAX_TURN_OUTPUT_BYTES: "1000", STRATA_STREAM_IDLE_MS: " 250 " })).toEqual({
      maxOutputBytes: 1000,
      idleMs: 250,
    });
    for (const bad of ["0", "-5", "1.5", "abc", "", "  "])
      expect(streamLimits({ STRATA_MAX_TURN_OUTPUT_BYTES: bad, STRATA_STREAM_IDLE_MS: bad })).toEqual({
        maxOutputBytes: 8_388_608,
        idleMs: 120_000,
      });
    // A timer cannot wait longer than 2^31-1 ms (a longer one fires at once).
    expect(streamLimits({ STRATA_STREAM_IDLE_MS: "9999999999" }).idleMs).toBe(2_147_483_647);
  });

  it("words both errors exactly; the timeout is a transient error pi's auto-retry repeats", () => {
    expect(outputCapMessage(8 * 1024 * 1024)).toBe(
      "The answer was cut off after 8 MiB, the most one turn may stream (text, thinking and tool-call arguments; " +
        "STRATA_MAX_TURN_OUTPUT_BYTES). What arrived up to the cut is kept. Ask for a shorter answer, or for the " +
        "work in smaller steps (for example one file per turn).",
    );
    expect(idleTimeoutMessage(120_000)).toBe(
      "The provider sent nothing for 120 s, so the response timed out (STRATA_STREAM_IDLE_MS). What arrived before is kept.",
    );
    expect(isTransientError(idleTimeoutMessage(120_000))).toBe(true);
    expect(isTransientError(outputCapMessage(100))).toBe(false);
  });
});

describe("OutputBudget", () => {
  it("keeps whole deltas up to the cap, cuts the one that crosses it at a character boundary, then nothing", () => {
    expect(utf8Prefix("aé€😀b", 1)).toBe("a");
    expect(utf8Prefix("aé€😀b", 2)).toBe("a"); // é is 2 bytes
    expect(utf8Prefix("aé€😀b", 6)).toBe("aé€"); // € is 3
    expect(utf8Prefix("aé€😀b", 9)).toBe("aé€"); // never half of the surrogate pair of 😀 (4 bytes)
    expect(utf8Prefix("aé€😀b", 10)).toBe("aé€😀");
    const budget = new OutputBudget(10);
    expect(budget.take("abcd")).toBe("abcd");
    expect(budget.take("éé")).toBe("éé"); // 8 bytes
    expect(budget.exceeded).toBe(false);
    expect(budget.take("€")).toBe(""); // 3 bytes do not fit in the 2 left
    expect(budget.exceeded).toBe(true);
    expect(budget.take("a")).toBe("");
    const exact = new OutputBudget(4);
    expect(exact.take("abcd")).toBe("abcd");
    expect(exact.exceeded).toBe(false); // reaching the cap is not passing it
  });
});

describe("PartialArguments: the work of parsing growing tool arguments", () => {
  it("parses 1 MiB of arguments in 64-byte deltas 73 times (3.3 MB) where pi parses 16,385 times (8.6 GB)", async () => {
    const json = JSON.stringify({ path: "big.txt", content: "x".repeat(1024 * 1024) });
    expect(json.length).toBe(1_048_607);
    const parsed: number[] = [];
    const args = new PartialArguments(async (text) => {
      parsed.push(text.length);
      return {};
    });
    let deltas = 0;
    for (let i = 0; i < json.length; i += 64) {
      deltas++;
      await args.append(json.slice(i, i + 64));
    }
    await args.flush();
    expect(deltas).toBe(16_385);
    // Every delta up to 4096 characters (64 parses, like pi), then at each doubling (8 KiB … 1 MiB: 8), then the
    // rest once at the end (a cut-off call keeps all that arrived).
    expect(parsed).toHaveLength(73);
    expect(parsed.slice(64)).toEqual([
      8192, 16_384, 32_768, 65_536, 131_072, 262_144, 524_288, 1_048_576, 1_048_607,
    ]);
    expect(parsed.reduce((a, b) => a + b, 0)).toBe(133_120 + 2_088_960 + 1_048_607);
    // Nothing arrived since: no parse.
    expect(args.flush()).toBeUndefined();
  });

  it("streams 1 MiB of tool arguments in 64-byte deltas: every delta is reported and the arguments are exact", async () => {
    const input = { path: "big.txt", content: "x".repeat(1024 * 1024) };
    mock.enqueue({ toolCalls: [{ id: "toolu_big", name: "write", input, chunkBytes: 64 }] });
    const events = await run();
    const argDeltas = deltas(events, "toolcall_delta");
    // 16,385 deltas of 64 bytes (the last shorter); the AI SDK drops Anthropic's empty opening one.
    expect(argDeltas).toHaveLength(16_385);
    expect(argDeltas.join("")).toBe(JSON.stringify(input));
    const message = final(events);
    expect(message.stopReason).toBe("toolUse");
    expect(message.content).toEqual([{ type: "toolCall", id: "toolu_big", name: "write", arguments: input }]);
  });
});

describe("the output cap", () => {
  it("ends a 20 MB answer with length at the default 8 MiB: the text up to the cap, the exact error", async () => {
    mock.enqueue({ bulkText: { bytes: 20 * 1024 * 1024 } });
    const events = await run();
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "length" });
    const message = final(events);
    expect(message.stopReason).toBe("length");
    expect(message.errorMessage).toBe(outputCapMessage(8 * 1024 * 1024));
    expect(message.content).toHaveLength(1);
    const block = message.content[0];
    expect(block.type === "text" && block.text.length).toBe(8_388_608);
    expect(deltas(events, "text_delta").join("").length).toBe(8_388_608);
  });

  it("counts thinking, text and tool arguments together, in UTF-8 bytes", async () => {
    mock.enqueue({
      thinking: { text: ["é".repeat(10), "t".repeat(10)] }, // 30 bytes
      text: "a".repeat(50),
      toolCalls: [{ id: "toolu_1", name: "write", input: { path: "y".repeat(100) } }],
    });
    const events = await run({ STRATA_MAX_TURN_OUTPUT_BYTES: "100" });
    const message = final(events);
    expect(message.stopReason).toBe("length");
    expect(message.errorMessage).toBe(outputCapMessage(100));
    // 30 + 50 bytes, then 20 of the arguments' JSON: `{"path":"` and 11 y's, kept as parsed so far.
    expect(message.content).toEqual([
      { type: "thinking", thinking: `${"é".repeat(10)}${"t".repeat(10)}` },
      { type: "text", text: "a".repeat(50) },
      { type: "toolCall", id: "toolu_1", name: "write", arguments: { path: "y".repeat(11) } },
    ]);
    expect(deltas(events, "toolcall_delta").join("")).toBe(`{"path":"${"y".repeat(11)}`);
  });
});

describe("the idle timeout", () => {
  const silence = (ms: number) => idleTimeoutMessage(ms);

  it("a provider that answers 200 and then sends nothing: a retryable error after the window, nothing kept", async () => {
    mock.enqueue({ holdUntilReleased: "never", holdAt: "headers", text: "never sent" });
    const events = await run({ STRATA_STREAM_IDLE_MS: "100" });
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
    const message = final(events);
    expect(message).toMatchObject({ stopReason: "error", content: [] });
    expect(message.errorMessage).toBe(
      "The provider sent nothing for 100 ms, so the response timed out (STRATA_STREAM_IDLE_MS). What arrived before is kept.",
    );
    expect(isRetryableError(message, model.contextWindow)).toBe(true);
    await expect.poll(() => mock.requests[0]?.aborted).toBe(true);
  });

  it("a provider that goes silent mid-answer: the same error, the text that arrived kept", async () => {
    mock.enqueue({ text: ["Hel", "lo"], holdUntilReleased: "never" });
    const events = await run({ STRATA_STREAM_IDLE_MS: "100" });
    const message = final(events);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toBe(silence(100));
    expect(message.content).toEqual([{ type: "text", text: "Hel" }]);
  });

  it("the caller's abort while the provider is silent is an abort, not a timeout", async () => {
    mock.enqueue({ holdUntilReleased: "never", holdAt: "headers" });
    const controller = new AbortController();
    const done = run({}, { signal: controller.signal });
    await expect.poll(() => mock.requests.length).toBe(1);
    controller.abort();
    const message = final(await done);
    expect(message).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted" });
  });
});

describe("IdleWatch", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires once the window passed since the last touch, not since the start", () => {
    vi.useFakeTimers();
    const fired: number[] = [];
    const watch = new IdleWatch(100, () => fired.push(Date.now()));
    const start = Date.now();
    vi.advanceTimersByTime(60);
    watch.touch();
    vi.advanceTimersByTime(99);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([start + 160]);
    vi.advanceTimersByTime(1000);
    expect(fired).toHaveLength(1);
    const stopped = new IdleWatch(100, () => fired.push(-1));
    stopped.stop();
    vi.advanceTimersByTime(1000);
    expect(fired).toHaveLength(1);
  });
});

describe("an answer that has already arrived", () => {
  it("is processed with event-loop turns in between, not in one run of microtasks", async () => {
    mock.enqueue({ bulkText: { bytes: 4 * 1024 * 1024, chunkBytes: 256 } });
    // The whole body in memory before the first part is read: what a fast provider's burst looks like.
    const buffered = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      return new Response(await response.arrayBuffer(), response);
    }) as typeof fetch;
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const marks: number[] = [];
    try {
      const stream = streamAssistant(
        model,
        { systemPrompt: "", messages: [user("hi")], tools: [] },
        { env: mockEnv(mock), fetch: buffered },
      );
      for await (const event of stream)
        if (event.type === "text_start" || event.type === "done") marks.push(turns);
    } finally {
      ticking = false;
    }
    // 16,384 deltas took far more than the 10 ms slice: the loop yielded. Read in microtasks only, it was 0.
    expect(marks).toHaveLength(2);
    expect(marks[1] - marks[0]).toBeGreaterThan(0);
  });
});
