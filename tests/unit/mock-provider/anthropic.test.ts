import { createAnthropic } from "@ai-sdk/anthropic";
import { APICallError, type ModelMessage, streamText, type TextStreamPart, type ToolSet } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProvider, startMockProvider } from "@/tests/mock-provider";

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

type Body = Record<string, unknown> & { messages: { role: string; content: Record<string, unknown>[] }[] };

/** The provider under test; `mutate` rewrites the JSON body on its way out (to put invalid histories on the wire). */
const model = (mutate?: (body: Body) => void) =>
  createAnthropic({
    baseURL: `${mock.url}/v1`,
    apiKey: "test",
    fetch: mutate
      ? (input, init) => {
          const body = JSON.parse(String(init?.body)) as Body;
          mutate(body);
          return fetch(input, { ...init, body: JSON.stringify(body) });
        }
      : undefined,
  })("claude-sonnet-4-5");
const thinkingOn = { anthropic: { thinking: { type: "enabled", budgetTokens: 2048 } } } as const;

async function collect(
  messages: ModelMessage[],
  providerOptions?: typeof thinkingOn,
  mutate?: (body: Body) => void,
): Promise<{ parts: TextStreamPart<ToolSet>[]; error?: unknown }> {
  const parts: TextStreamPart<ToolSet>[] = [];
  let error: unknown;
  const result = streamText({
    model: model(mutate),
    messages,
    providerOptions,
    maxRetries: 0,
    onError: () => {},
  });
  for await (const part of result.fullStream) {
    if (part.type === "error") error = part.error;
    parts.push(part);
  }
  return { parts, error };
}

const user = (text: string): ModelMessage => ({ role: "user", content: text });

describe("mock provider: Anthropic Messages", () => {
  it("streams text deltas, finish reason and usage", async () => {
    mock.enqueue({ text: ["Hel", "lo ", "world"], usage: { input: 42, output: 7, cacheRead: 3 } });
    const { parts } = await collect([user("hi")]);
    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual(["Hel", "lo ", "world"]);
    const finish = parts.find((p) => p.type === "finish");
    expect(finish).toMatchObject({
      finishReason: "stop",
      rawFinishReason: "end_turn",
      totalUsage: { inputTokens: 45, outputTokens: 7 },
    });
    expect(finish?.type === "finish" && finish.totalUsage.inputTokenDetails).toMatchObject({
      noCacheTokens: 42,
      cacheReadTokens: 3,
    });
    const [request] = mock.requests;
    expect(request).toMatchObject({ provider: "anthropic", path: "/v1/messages", status: 200 });
    expect(request.headers["x-api-key"]).toBeUndefined();
    expect(request.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request.body).toMatchObject({
      model: "claude-sonnet-4-5",
      stream: true,
      messages: [{ role: "user" }],
    });
  });

  it("streams thinking with signature, redacted thinking and a tool call", async () => {
    mock.enqueue({
      thinking: { text: ["Let me ", "think."], signature: "sig-abc" },
      redactedThinking: "REDACTED==",
      text: "Looking.",
      toolCalls: [{ id: "toolu_01", name: "bash", input: { command: "ls -la", timeout: 5 } }],
      usage: { input: 10, output: 20 },
    });
    const { parts } = await collect([user("list files")], thinkingOn);
    const reasoning = parts.filter((p) => p.type === "reasoning-delta");
    expect(reasoning.map((p) => p.text)).toEqual(["Let me ", "think.", ""]);
    expect(reasoning[2].providerMetadata).toEqual({ anthropic: { signature: "sig-abc" } });
    const starts = parts.filter((p) => p.type === "reasoning-start");
    expect(starts[1].providerMetadata).toEqual({ anthropic: { redactedData: "REDACTED==" } });
    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual(["Looking."]);
    const inputDeltas = parts.filter((p) => p.type === "tool-input-delta");
    expect(inputDeltas.length).toBeGreaterThan(1);
    expect(inputDeltas.map((p) => p.delta).join("")).toBe('{"command":"ls -la","timeout":5}');
    const call = parts.find((p) => p.type === "tool-call");
    expect(call).toMatchObject({
      toolCallId: "toolu_01",
      toolName: "bash",
      input: { command: "ls -la", timeout: 5 },
    });
    expect(parts.find((p) => p.type === "finish")).toMatchObject({
      finishReason: "tool-calls",
      rawFinishReason: "tool_use",
    });
    expect(mock.requests[0].body).toMatchObject({ thinking: { type: "enabled", budget_tokens: 2048 } });
  });

  it("maps stopReason length to max_tokens", async () => {
    mock.enqueue({ text: "cut", stopReason: "length" });
    const { parts } = await collect([user("long")]);
    expect(parts.find((p) => p.type === "finish")).toMatchObject({
      finishReason: "length",
      rawFinishReason: "max_tokens",
    });
  });

  it("generates tool ids when none are scripted", async () => {
    mock.enqueue({
      toolCalls: [
        { name: "read", input: { path: "a" } },
        { name: "read", input: { path: "b" } },
      ],
    });
    const { parts } = await collect([user("read")]);
    const ids = parts.flatMap((p) => (p.type === "tool-call" ? [p.toolCallId] : []));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });

  it("replays a history with thinking, tool_use and tool_result", async () => {
    mock.enqueue({ text: "Done." });
    const history: ModelMessage[] = [
      user("list files"),
      {
        role: "assistant",
        content: [
          {
            type: "reasoning",
            text: "Let me think.",
            providerOptions: { anthropic: { signature: "sig-abc" } },
          },
          { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "REDACTED==" } } },
          { type: "text", text: "Looking." },
          { type: "tool-call", toolCallId: "toolu_01", toolName: "bash", input: { command: "ls" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "toolu_01",
            toolName: "bash",
            output: { type: "text", value: "a b" },
          },
        ],
      },
    ];
    const { parts, error } = await collect(history, thinkingOn);
    expect(error).toBeUndefined();
    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual(["Done."]);
    const [request] = mock.requests;
    expect(request.status).toBe(200);
    expect(request.validationError).toBeUndefined();
    expect(request.body).toMatchObject({
      messages: [
        { role: "user" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Let me think.", signature: "sig-abc" },
            { type: "redacted_thinking", data: "REDACTED==" },
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "toolu_01", name: "bash", input: { command: "ls" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "a b" }] },
      ],
    });
  });

  it("rejects a tool_use without tool_result with 400 and records it", async () => {
    mock.enqueue({ text: "never sent" });
    const history: ModelMessage[] = [
      user("go"),
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "toolu_02", toolName: "bash", input: { command: "ls" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "toolu_02",
            toolName: "bash",
            output: { type: "text", value: "" },
          },
        ],
      },
    ];
    // The SDK refuses such a history itself, so break it on the wire: replace the tool_result by text.
    const { error } = await collect(history, undefined, (body) => {
      body.messages[2].content = [{ type: "text", text: "and?" }];
    });
    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(400);
    expect(apiError.message).toContain(
      "`tool_use` ids were found without `tool_result` blocks immediately after",
    );
    expect(JSON.parse(apiError.responseBody ?? "{}")).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
    expect(mock.requests[0]).toMatchObject({ status: 400 });
    expect(mock.requests[0].validationError).toContain("toolu_02");
    expect(mock.pending).toBe(1);
  });

  const valid = () => ({
    model: "claude-sonnet-4-5",
    max_tokens: 100,
    stream: true,
    messages: [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "ok" }] },
    ] as { role: string; content: unknown }[],
  });
  it.each([
    [
      "two user messages in a row",
      (b: ReturnType<typeof valid>) => b.messages.splice(1, 1),
      "roles must alternate",
    ],
    [
      "assistant first",
      (b: ReturnType<typeof valid>) => b.messages.shift(),
      'first message must use the "user" role',
    ],
    [
      "an empty text block",
      (b: ReturnType<typeof valid>) => {
        b.messages[0].content = [{ type: "text", text: "" }];
      },
      "messages.0.content.0.text: text content blocks must be non-empty",
    ],
    [
      "a tool id with a dot",
      (b: ReturnType<typeof valid>) => {
        b.messages[1].content = [{ type: "tool_use", id: "toolu.1", name: "bash", input: {} }];
        b.messages[2].content = [{ type: "tool_result", tool_use_id: "toolu.1", content: "ok" }];
      },
      "tool_use.id: String should match pattern",
    ],
    [
      "a stray tool_result",
      (b: ReturnType<typeof valid>) => {
        b.messages[2].content = [
          { type: "tool_result", tool_use_id: "toolu_1", content: "ok" },
          { type: "tool_result", tool_use_id: "toolu_9", content: "ok" },
        ];
      },
      "unexpected `tool_use_id` found in `tool_result` blocks: toolu_9",
    ],
    [
      "text before the tool_result",
      (b: ReturnType<typeof valid>) => {
        b.messages[2].content = [
          { type: "text", text: "first" },
          { type: "tool_result", tool_use_id: "toolu_1", content: "ok" },
        ];
      },
      "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1",
    ],
  ])("rejects %s", async (_name, breakIt, message) => {
    const body = valid();
    const ok = await fetch(`${mock.url}/v1/messages`, { method: "POST", body: JSON.stringify(body) });
    expect(ok.status).toBe(200);
    await ok.text();
    breakIt(body);
    const res = await fetch(`${mock.url}/v1/messages`, { method: "POST", body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(json.type).toBe("error");
    expect(json.error.type).toBe("invalid_request_error");
    expect(json.error.message).toContain(message);
    expect(mock.requests[1].validationError).toContain(message);
  });

  it("requires the final tool-loop assistant message to start with thinking when thinking is on", async () => {
    const history: ModelMessage[] = [
      user("go"),
      {
        role: "assistant",
        content: [
          { type: "text", text: "Running." },
          { type: "tool-call", toolCallId: "toolu_03", toolName: "bash", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "toolu_03",
            toolName: "bash",
            output: { type: "text", value: "" },
          },
        ],
      },
    ];
    const { error } = await collect(history, thinkingOn);
    expect((error as APICallError).statusCode).toBe(400);
    expect(mock.requests[0].validationError).toContain(
      "Expected `thinking` or `redacted_thinking`, but found `text`",
    );
  });

  it("answers a scripted error in Anthropic's shape", async () => {
    mock.enqueue({ error: { status: 529, message: "Overloaded" } });
    const { error } = await collect([user("hi")]);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(529);
    expect(apiError.isRetryable).toBe(true);
    expect(JSON.parse(apiError.responseBody ?? "{}")).toMatchObject({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
  });

  it("answers a default turn when the queue is empty", async () => {
    const { parts } = await collect([user("hi")]);
    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual([
      "(mock) no scripted turn",
    ]);
  });

  it("holds a stream at a gate until released, and records an abort", async () => {
    mock.enqueue({ text: ["first", "second"], holdUntilReleased: "g1" });
    const result = streamText({ model: model(), prompt: "hi", maxRetries: 0 });
    const reader = result.textStream[Symbol.asyncIterator]();
    expect((await reader.next()).value).toBe("first");
    const next = reader.next();
    // The server wrote the first delta and waits at the gate: an open gate writes the rest of the frames in the
    // same turn as the first, so by the time "first" got here "second" would have been written too.
    const timing = mock.requests[0].timing;
    expect([timing?.deltas, timing?.endedAt]).toEqual([1, undefined]);
    mock.release("g1");
    expect((await next).value).toBe("second");
    expect(mock.requests[0].timing?.deltas).toBe(2);

    mock.enqueue({ text: ["a", "b"], holdUntilReleased: "never" });
    const controller = new AbortController();
    const aborted = streamText({
      model: model(),
      prompt: "hi",
      abortSignal: controller.signal,
      maxRetries: 0,
    });
    const it2 = aborted.textStream[Symbol.asyncIterator]();
    expect((await it2.next()).value).toBe("a");
    controller.abort();
    await it2.next().catch(() => undefined);
    await expect.poll(() => mock.requests[1]?.aborted, { timeout: 20_000 }).toBe(true);
  });
});
