import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Model, resolveModel } from "@/lib/llm/models";
import { streamAssistant } from "@/lib/llm/stream";
import type { AssistantMessage, Message, ToolDeclaration, ToolResultMessage } from "@/lib/llm/types";
import { type MockProvider, startMockProvider } from "@/tests/mock-provider";
import { collect, mockEnv, shape, user } from "./helpers";

let mock: MockProvider;
let model: Model;
beforeAll(async () => {
  mock = await startMockProvider();
  model = resolveModel("openai/gpt-5", mockEnv(mock))!;
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

const read: ToolDeclaration = {
  name: "read",
  description: "Read file contents",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

const run = (
  messages: Message[] = [user("hi")],
  options: Partial<Parameters<typeof streamAssistant>[2]> = {},
) =>
  collect(
    streamAssistant(
      model,
      { systemPrompt: "You are X.", messages, tools: [read] },
      { env: mockEnv(mock), ...options },
    ),
  );

const finalMessage = (events: Awaited<ReturnType<typeof run>>): AssistantMessage => {
  const last = events.at(-1)!;
  if (last.type === "done") return last.message;
  if (last.type === "error") return last.error;
  throw new Error(`stream ended with ${last.type}`);
};

type Body = Record<string, unknown> & { input: Record<string, unknown>[] };

describe("streamAssistant: OpenAI Responses", () => {
  it("streams text events in order with the exact deltas", async () => {
    mock.enqueue({ text: ["Hel", "lo", " world"] });
    const events = await run();
    expect(shape(events)).toEqual([
      { type: "start" },
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: "Hel" },
      { type: "text_delta", contentIndex: 0, delta: "lo" },
      { type: "text_delta", contentIndex: 0, delta: " world" },
      { type: "text_end", contentIndex: 0, content: "Hello world" },
      { type: "done", reason: "stop" },
    ]);
    const message = finalMessage(events);
    expect(message).toMatchObject({
      content: [{ type: "text", text: "Hello world" }],
      api: "openai-responses",
      provider: "openai",
      model: "gpt-5",
      stopReason: "stop",
    });
    // The message item id from the wire, in pi's TextSignatureV1 form.
    const textBlock = message.content[0] as { textSignature?: string };
    expect(JSON.parse(textBlock.textSignature ?? "")).toEqual({
      v: 1,
      id: expect.stringMatching(/^msg_mock\d+$/),
    });
    expect(message.responseId).toMatch(/^resp_mock\d+$/);
    const body = mock.requests[0].body as Body;
    expect(body.input).toEqual([
      { role: "developer", content: "You are X." },
      { role: "user", content: [{ type: "input_text", text: "hi" }] },
    ]);
    expect(body.store).toBe(false);
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    expect(body.max_output_tokens).toBe(128_000);
    expect(body.reasoning).toBeUndefined();
  });

  it("turns a function_call into a toolCall with parsed arguments and stopReason toolUse", async () => {
    mock.enqueue({ toolCalls: [{ id: "call_01", name: "read", input: { path: "src/a.ts" } }] });
    const events = await run();
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    expect(events.find((e) => e.type === "toolcall_end")).toMatchObject({
      contentIndex: 0,
      toolCall: { type: "toolCall", id: "call_01", name: "read", arguments: { path: "src/a.ts" } },
    });
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "toolUse" });
    expect(finalMessage(events).content).toEqual([
      { type: "toolCall", id: "call_01", name: "read", arguments: { path: "src/a.ts" } },
    ]);
  });

  it("keeps the reasoning item (id + encrypted content) and replays it on the next request", async () => {
    mock.enqueue(
      {
        thinking: { text: ["Need ", "the file."], signature: "enc-secret" },
        toolCalls: [{ id: "call_02", name: "read", input: { path: "a.txt" } }],
      },
      { text: "It says hi." },
    );
    const first = await run([user("read a.txt")], { thinkingLevel: "high" });
    expect(shape(first).slice(0, 5)).toEqual([
      { type: "start" },
      { type: "thinking_start", contentIndex: 0 },
      { type: "thinking_delta", contentIndex: 0, delta: "Need " },
      { type: "thinking_delta", contentIndex: 0, delta: "the file." },
      { type: "thinking_end", contentIndex: 0, content: "Need the file." },
    ]);
    const assistant = finalMessage(first);
    const signature = (assistant.content[0] as { thinkingSignature?: string }).thinkingSignature ?? "";
    const reasoningId = (JSON.parse(signature) as { id: string }).id;
    expect(reasoningId).toMatch(/^rs_mock\d+$/);
    const reasoningItem = {
      type: "reasoning",
      id: reasoningId,
      encrypted_content: "enc-secret",
      summary: [{ type: "summary_text", text: "Need the file." }],
    };
    expect(assistant.content[0]).toEqual({
      type: "thinking",
      thinking: "Need the file.",
      thinkingSignature: JSON.stringify(reasoningItem),
    });
    expect((mock.requests[0].body as Body).reasoning).toEqual({ effort: "high", summary: "auto" });

    const result: ToolResultMessage = {
      role: "toolResult",
      toolCallId: "call_02",
      toolName: "read",
      content: [{ type: "text", text: "hi" }],
      isError: false,
      timestamp: 3,
    };
    const second = await run([user("read a.txt"), assistant, result], { thinkingLevel: "high" });
    expect(finalMessage(second).content).toMatchObject([{ type: "text", text: "It says hi." }]);
    expect(mock.requests[1].status).toBe(200);
    expect((mock.requests[1].body as Body).input).toEqual([
      { role: "developer", content: "You are X." },
      { role: "user", content: [{ type: "input_text", text: "read a.txt" }] },
      reasoningItem,
      { type: "function_call", call_id: "call_02", name: "read", arguments: '{"path":"a.txt"}' },
      { type: "function_call_output", call_id: "call_02", output: "hi" },
    ]);
  });

  it("accepts pi's `call_id|item_id` tool-call ids and replays the call_id", async () => {
    mock.enqueue({ text: "ok" });
    const assistant: AssistantMessage = {
      role: "assistant",
      content: [{ type: "toolCall", id: "call_9|fc_9", name: "read", arguments: { path: "b" } }],
      api: "openai-responses",
      provider: "openai",
      model: "gpt-5",
      usage: finalMessageUsage(),
      stopReason: "toolUse",
      timestamp: 2,
    };
    const result: ToolResultMessage = {
      role: "toolResult",
      toolCallId: "call_9|fc_9",
      toolName: "read",
      content: [],
      isError: true,
      timestamp: 3,
    };
    await run([user("x"), assistant, result]);
    expect(mock.requests[0].status).toBe(200);
    expect((mock.requests[0].body as Body).input.slice(2)).toEqual([
      { type: "function_call", call_id: "call_9", name: "read", arguments: '{"path":"b"}' },
      { type: "function_call_output", call_id: "call_9", output: "(no tool output)" },
    ]);
  });

  it("reports usage and its cost from the model's prices", async () => {
    mock.enqueue({ text: "x", usage: { input: 1000, output: 200, cacheRead: 4000, reasoning: 50 } });
    const usage = finalMessage(await run()).usage;
    expect({ ...usage, cost: undefined }).toEqual({
      input: 1000,
      output: 200,
      cacheRead: 4000,
      cacheWrite: 0,
      totalTokens: 5200,
      cost: undefined,
    });
    // GPT-5: $1.25 in, $10 out, $0.125 cached input per million tokens.
    expect(usage.cost.input).toBeCloseTo(0.00125, 12);
    expect(usage.cost.output).toBeCloseTo(0.002, 12);
    expect(usage.cost.cacheRead).toBeCloseTo(0.0005, 12);
    expect(usage.cost.cacheWrite).toBe(0);
    expect(usage.cost.total).toBeCloseTo(0.00375, 12);
  });

  it("ends an HTTP 500 with an error event carrying the provider's message", async () => {
    mock.enqueue({
      error: { status: 500, message: "The server had an error while processing your request." },
    });
    const events = await run();
    expect(shape(events)).toEqual([{ type: "start" }, { type: "error", reason: "error" }]);
    expect(finalMessage(events)).toMatchObject({
      stopReason: "error",
      errorMessage: "500 The server had an error while processing your request.",
      content: [],
    });
  });

  it("ends an abort mid-stream with stopReason aborted and keeps the partial text", async () => {
    mock.enqueue({ text: ["partial", " rest"], holdUntilReleased: "gate" });
    const controller = new AbortController();
    const events = [];
    for await (const event of streamAssistant(
      model,
      { systemPrompt: "", messages: [user("go")], tools: [] },
      { env: mockEnv(mock), signal: controller.signal },
    )) {
      events.push(event);
      if (event.type === "text_delta") controller.abort();
    }
    mock.release("gate");
    expect(shape(events)).toEqual([
      { type: "start" },
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: "partial" },
      { type: "error", reason: "aborted" },
    ]);
    expect(finalMessage(events)).toMatchObject({
      stopReason: "aborted",
      errorMessage: "Request was aborted",
      content: [{ type: "text", text: "partial" }],
    });
  });

  it("shows onPayload the exact body and sends its replacement", async () => {
    mock.enqueue({ text: "one" }, { text: "two" });
    let seen: { payload: unknown; url: string } | undefined;
    await run([user("hi")], {
      onPayload: (payload, url) => {
        seen = { payload: structuredClone(payload), url };
      },
    });
    expect(seen?.url).toBe(`${mock.url}/v1/responses`);
    expect(seen?.payload).toEqual(mock.requests[0].body);

    await run([user("hi")], {
      onPayload: async (payload) => ({
        ...(payload as Body),
        metadata: { session: "s1" },
        max_output_tokens: 99,
      }),
    });
    expect(mock.requests[1].body).toMatchObject({ metadata: { session: "s1" }, max_output_tokens: 99 });
  });
});

function finalMessageUsage(): AssistantMessage["usage"] {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
