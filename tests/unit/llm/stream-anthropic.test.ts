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
  model = resolveModel("anthropic/claude-sonnet-4-5", mockEnv(mock))!;
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

const bash: ToolDeclaration = {
  name: "bash",
  description: "Execute bash commands",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

const run = (
  messages: Message[] = [user("hi")],
  options: Partial<Parameters<typeof streamAssistant>[2]> = {},
) =>
  collect(
    streamAssistant(
      model,
      { systemPrompt: "You are X.", messages, tools: [bash] },
      { env: mockEnv(mock), ...options },
    ),
  );

const finalMessage = (events: Awaited<ReturnType<typeof run>>): AssistantMessage => {
  const last = events.at(-1)!;
  if (last.type === "done") return last.message;
  if (last.type === "error") return last.error;
  throw new Error(`stream ended with ${last.type}`);
};

describe("streamAssistant: Anthropic Messages", () => {
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
      role: "assistant",
      content: [{ type: "text", text: "Hello world" }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      stopReason: "stop",
    });
    expect(message.responseId).toMatch(/^msg_mock\d+$/);
    expect(message.errorMessage).toBeUndefined();
    expect(events[0]).toMatchObject({ type: "start" });
    const body = mock.requests[0].body as Record<string, unknown>;
    expect(body.system).toEqual([{ type: "text", text: "You are X." }]);
    expect(body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
    expect(body.max_tokens).toBe(64_000);
    expect(body.tools).toEqual([
      {
        name: "bash",
        description: "Execute bash commands",
        input_schema: bash.parameters,
        eager_input_streaming: true,
      },
    ]);
  });

  it("turns a tool_use block into a toolCall with parsed arguments and stopReason toolUse", async () => {
    mock.enqueue({
      text: "Listing.",
      toolCalls: [{ id: "toolu_01", name: "bash", input: { command: "ls -la" } }],
    });
    const events = await run();
    const types = events.map((e) => e.type);
    expect(types.slice(types.indexOf("toolcall_start"))).toEqual([
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_end",
      "done",
    ]);
    const end = events.find((e) => e.type === "toolcall_end");
    expect(end).toMatchObject({
      contentIndex: 1,
      toolCall: { type: "toolCall", id: "toolu_01", name: "bash", arguments: { command: "ls -la" } },
    });
    const deltas = events.flatMap((e) => (e.type === "toolcall_delta" ? [e.delta] : []));
    expect(deltas.join("")).toBe('{"command":"ls -la"}');
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "toolUse" });
    expect(finalMessage(events).content).toEqual([
      { type: "text", text: "Listing." },
      { type: "toolCall", id: "toolu_01", name: "bash", arguments: { command: "ls -la" } },
    ]);
    expect(finalMessage(events).stopReason).toBe("toolUse");
  });

  it("keeps the thinking signature and replays it on the next request", async () => {
    mock.enqueue(
      {
        thinking: { text: ["Let me ", "look."], signature: "sig-EqQB" },
        toolCalls: [{ id: "toolu_02", name: "bash", input: { command: "ls" } }],
      },
      { text: "Done." },
    );
    const first = await run([user("list")], { thinkingLevel: "medium" });
    expect(shape(first).slice(0, 5)).toEqual([
      { type: "start" },
      { type: "thinking_start", contentIndex: 0 },
      { type: "thinking_delta", contentIndex: 0, delta: "Let me " },
      { type: "thinking_delta", contentIndex: 0, delta: "look." },
      { type: "thinking_end", contentIndex: 0, content: "Let me look." },
    ]);
    const assistant = finalMessage(first);
    expect(assistant.content[0]).toEqual({
      type: "thinking",
      thinking: "Let me look.",
      thinkingSignature: "sig-EqQB",
    });
    const requestBody = mock.requests[0].body as Record<string, unknown>;
    expect(requestBody.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
    expect(requestBody.max_tokens).toBe(64_000);

    const result: ToolResultMessage = {
      role: "toolResult",
      toolCallId: "toolu_02",
      toolName: "bash",
      content: [{ type: "text", text: "a\nb" }],
      isError: false,
      timestamp: 3,
    };
    const second = await run([user("list"), assistant, result], { thinkingLevel: "medium" });
    expect(finalMessage(second).content).toEqual([{ type: "text", text: "Done." }]);
    expect(mock.requests[1].status).toBe(200);
    const body = mock.requests[1].body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "list" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Let me look.", signature: "sig-EqQB" },
          { type: "tool_use", id: "toolu_02", name: "bash", input: { command: "ls" } },
        ],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_02", content: "a\nb" }] },
    ]);
  });

  it("keeps redacted thinking as pi does and replays it as redacted_thinking", async () => {
    mock.enqueue(
      {
        redactedThinking: "REDACTED-DATA",
        toolCalls: [{ id: "toolu_03", name: "bash", input: { command: "pwd" } }],
      },
      { text: "ok" },
    );
    const first = await run([user("where")], { thinkingLevel: "low" });
    const assistant = finalMessage(first);
    expect(assistant.content[0]).toEqual({
      type: "thinking",
      thinking: "[Reasoning redacted]",
      thinkingSignature: "REDACTED-DATA",
      redacted: true,
    });
    expect(shape(first).slice(1, 3)).toEqual([
      { type: "thinking_start", contentIndex: 0 },
      { type: "thinking_end", contentIndex: 0, content: "[Reasoning redacted]" },
    ]);
    const result: ToolResultMessage = {
      role: "toolResult",
      toolCallId: "toolu_03",
      toolName: "bash",
      content: [{ type: "text", text: "/strata" }],
      isError: false,
      timestamp: 3,
    };
    await run([user("where"), assistant, result], { thinkingLevel: "low" });
    expect(mock.requests[1].status).toBe(200);
    const body = mock.requests[1].body as { messages: { content: unknown[] }[] };
    expect(body.messages[1].content[0]).toEqual({ type: "redacted_thinking", data: "REDACTED-DATA" });
  });

  it("reports usage and its cost from the model's prices", async () => {
    mock.enqueue({ text: "x", usage: { input: 1000, output: 200, cacheRead: 5000, cacheWrite: 400 } });
    const usage = finalMessage(await run()).usage;
    expect({ ...usage, cost: undefined }).toEqual({
      input: 1000,
      output: 200,
      cacheRead: 5000,
      cacheWrite: 400,
      totalTokens: 6600,
      cost: undefined,
    });
    // Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million tokens.
    expect(usage.cost.input).toBeCloseTo(0.003, 12);
    expect(usage.cost.output).toBeCloseTo(0.003, 12);
    expect(usage.cost.cacheRead).toBeCloseTo(0.0015, 12);
    expect(usage.cost.cacheWrite).toBeCloseTo(0.0015, 12);
    expect(usage.cost.total).toBeCloseTo(0.009, 12);
  });

  it.each([
    [529, "Overloaded"],
    [500, "Internal server error"],
  ])("ends an HTTP %i with an error event carrying the provider's message", async (status, message) => {
    mock.enqueue({ error: { status, message } });
    const events = await run();
    expect(shape(events)).toEqual([{ type: "start" }, { type: "error", reason: "error" }]);
    const error = finalMessage(events);
    expect(error.stopReason).toBe("error");
    expect(error.errorMessage).toBe(`${status} ${message}`);
    expect(error.content).toEqual([]);
    expect(mock.requests).toHaveLength(1);
  });

  it("ends an abort mid-stream with stopReason aborted and keeps the partial text", async () => {
    mock.enqueue({ text: ["partial", " rest"], holdUntilReleased: "mid" });
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
    mock.release("mid");
    expect(shape(events)).toEqual([
      { type: "start" },
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: "partial" },
      { type: "error", reason: "aborted" },
    ]);
    const error = finalMessage(events);
    expect(error).toMatchObject({
      stopReason: "aborted",
      errorMessage: "Request was aborted",
      content: [{ type: "text", text: "partial" }],
    });
  });

  it("shows onPayload the exact body and sends its replacement", async () => {
    mock.enqueue({ text: "seen" }, { text: "replaced" });
    const seen: { payload: unknown; url: string }[] = [];
    await run([user("hi")], {
      onPayload: (payload, url) => {
        seen.push({ payload: structuredClone(payload), url });
        return undefined;
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe(`${mock.url}/v1/messages`);
    expect(seen[0].payload).toEqual(mock.requests[0].body);

    const events = await run([user("hi")], {
      onPayload: (payload) => {
        const body = payload as Record<string, unknown>;
        return {
          ...body,
          metadata: { user_id: "strata-user" },
          system: [{ type: "text", text: "Replaced." }],
        };
      },
    });
    expect(finalMessage(events).content).toEqual([{ type: "text", text: "replaced" }]);
    expect(mock.requests[1].body).toMatchObject({
      metadata: { user_id: "strata-user" },
      system: [{ type: "text", text: "Replaced." }],
    });
  });

  it("turns a throwing onPayload and a missing key into error events instead of throwing", async () => {
    const thrown = await run([user("hi")], {
      onPayload: () => {
        throw new Error("blocked by extension");
      },
    });
    expect(finalMessage(thrown)).toMatchObject({ stopReason: "error", errorMessage: "blocked by extension" });
    expect(mock.requests).toHaveLength(0);

    const missing = await collect(
      streamAssistant(model, { systemPrompt: "", messages: [user("hi")], tools: [] }, { env: {} }),
    );
    expect(shape(missing)).toEqual([{ type: "start" }, { type: "error", reason: "error" }]);
    expect(finalMessage(missing).errorMessage).toBe(
      "ANTHROPIC_API_KEY is not set; cannot call anthropic/claude-sonnet-4-5.",
    );
  });
});
