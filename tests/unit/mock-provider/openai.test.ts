import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, type ModelMessage, streamText, type TextStreamPart, type ToolSet } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProvider, mockProviderClient, startMockProvider } from "@/tests/mock-provider";

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

type Body = Record<string, unknown> & { input: Record<string, unknown>[] };

/** The Responses model under test; `mutate` rewrites the JSON body on its way out. */
const model = (mutate?: (body: Body) => void) =>
  createOpenAI({
    baseURL: `${mock.url}/v1`,
    apiKey: "test",
    fetch: mutate
      ? (input, init) => {
          const body = JSON.parse(String(init?.body)) as Body;
          mutate(body);
          return fetch(input, { ...init, body: JSON.stringify(body) });
        }
      : undefined,
  }).responses("gpt-5");

const stateless = { openai: { store: false, include: ["reasoning.encrypted_content"] } };

async function collect(
  messages: ModelMessage[],
  options: { providerOptions?: typeof stateless; mutate?: (body: Body) => void } = {},
): Promise<{ parts: TextStreamPart<ToolSet>[]; error?: unknown; messages: ModelMessage[] }> {
  const parts: TextStreamPart<ToolSet>[] = [];
  let error: unknown;
  const result = streamText({
    model: model(options.mutate),
    messages,
    providerOptions: options.providerOptions,
    maxRetries: 0,
    onError: () => {},
  });
  for await (const part of result.fullStream) {
    if (part.type === "error") error = part.error;
    parts.push(part);
  }
  const response = error === undefined ? await result.response : undefined;
  return { parts, error, messages: response?.messages ?? [] };
}

const user = (text: string): ModelMessage => ({ role: "user", content: text });

describe("mock provider: OpenAI Responses", () => {
  it("streams text deltas, finish reason and usage", async () => {
    mock.enqueue({ text: ["Hel", "lo"], usage: { input: 30, cacheRead: 10, output: 8, reasoning: 3 } });
    const { parts } = await collect([user("hi")]);
    expect(parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual(["Hel", "lo"]);
    const start = parts.find((p) => p.type === "text-start");
    expect(start?.providerMetadata?.openai?.itemId).toMatch(/^msg_/);
    const finish = parts.find((p) => p.type === "finish");
    expect(finish).toMatchObject({ finishReason: "stop", totalUsage: { inputTokens: 40, outputTokens: 8 } });
    expect(finish?.type === "finish" && finish.totalUsage.inputTokenDetails.cacheReadTokens).toBe(10);
    expect(finish?.type === "finish" && finish.totalUsage.outputTokenDetails.reasoningTokens).toBe(3);
    expect(mock.requests[0]).toMatchObject({ provider: "openai", path: "/v1/responses", status: 200 });
    expect(mock.requests[0].headers.authorization).toBeUndefined();
    expect(mock.requests[0].body).toMatchObject({ model: "gpt-5", stream: true });
  });

  it("streams reasoning with encrypted content and a function call", async () => {
    mock.enqueue({
      thinking: { text: ["Think", "ing."], signature: "ENC123" },
      toolCalls: [{ id: "call_A1", name: "bash", input: { command: "ls -la" } }],
    });
    const { parts } = await collect([user("list")], { providerOptions: stateless });
    const reasoning = parts.filter((p) => p.type === "reasoning-delta");
    expect(reasoning.map((p) => p.text)).toEqual(["Think", "ing."]);
    const reasoningEnd = parts.find((p) => p.type === "reasoning-end");
    expect(reasoningEnd?.providerMetadata?.openai).toMatchObject({ reasoningEncryptedContent: "ENC123" });
    expect(reasoningEnd?.providerMetadata?.openai?.itemId).toMatch(/^rs_/);
    expect(parts.filter((p) => p.type === "tool-input-delta").length).toBeGreaterThan(1);
    const call = parts.find((p) => p.type === "tool-call");
    expect(call).toMatchObject({ toolCallId: "call_A1", toolName: "bash", input: { command: "ls -la" } });
    expect(call?.providerMetadata?.openai?.itemId).toMatch(/^fc_/);
    expect(parts.find((p) => p.type === "finish")).toMatchObject({ finishReason: "tool-calls" });
  });

  it("omits encrypted content unless the request includes it", async () => {
    mock.enqueue({ thinking: { text: "hmm", signature: "ENC" }, text: "ok" });
    const { parts } = await collect([user("x")]);
    const end = parts.find((p) => p.type === "reasoning-end");
    expect(end?.providerMetadata?.openai?.reasoningEncryptedContent ?? null).toBeNull();
  });

  it("maps stopReason length to response.incomplete", async () => {
    mock.enqueue({ text: "cut", stopReason: "length" });
    const { parts } = await collect([user("long")]);
    expect(parts.find((p) => p.type === "finish")).toMatchObject({
      finishReason: "length",
      rawFinishReason: "max_output_tokens",
    });
  });

  it.each([
    ["stateless (store: false)", stateless],
    ["stored (item references)", undefined],
  ])("round-trips a function call history, %s", async (_name, providerOptions) => {
    mock.enqueue(
      {
        thinking: { text: "plan", signature: "ENC1" },
        toolCalls: [{ name: "bash", input: { command: "ls" } }],
      },
      { text: "Done." },
    );
    const first = await collect([user("list")], { providerOptions });
    expect(first.error).toBeUndefined();
    // Without tools the SDK answers the call with its own tool-error message; keep only the assistant turn.
    const history: ModelMessage[] = [user("list"), ...first.messages.filter((m) => m.role === "assistant")];
    const call = first.parts.find((p) => p.type === "tool-call");
    if (call?.type !== "tool-call") throw new Error("no tool call");
    history.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: "bash",
          output: { type: "text", value: "a b" },
        },
      ],
    });
    const second = await collect(history, { providerOptions });
    expect(second.error).toBeUndefined();
    expect(second.parts.filter((p) => p.type === "text-delta").map((p) => p.text)).toEqual(["Done."]);
    const input = (mock.requests[1].body as Body).input;
    const types = input.map((item) => item.type ?? item.role);
    expect(types).toEqual(
      providerOptions
        ? ["user", "reasoning", "function_call", "function_call_output"]
        : ["user", "item_reference", "function_call", "function_call_output"],
    );
    expect(input[2]).toMatchObject({ call_id: call.toolCallId, name: "bash", arguments: '{"command":"ls"}' });
    expect(input[3]).toMatchObject({ call_id: call.toolCallId, output: "a b" });
    expect(mock.requests[1].validationError).toBeUndefined();
  });

  it("rejects a function_call without its output with 400 and records it", async () => {
    mock.enqueue({ text: "never sent" });
    const history: ModelMessage[] = [
      user("go"),
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "call_X", toolName: "bash", input: {} }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_X",
            toolName: "bash",
            output: { type: "text", value: "" },
          },
        ],
      },
    ];
    const { error } = await collect(history, {
      mutate: (body) => {
        body.input = body.input.filter((item) => item.type !== "function_call_output");
      },
    });
    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(400);
    expect(apiError.message).toBe("No tool output found for function call call_X.");
    expect(JSON.parse(apiError.responseBody ?? "{}")).toMatchObject({
      error: { type: "invalid_request_error", message: "No tool output found for function call call_X." },
    });
    expect(mock.requests[0]).toMatchObject({
      status: 400,
      validationError: "No tool output found for function call call_X.",
    });
    expect(mock.pending).toBe(1);
  });

  it("rejects a function_call_output without its call", async () => {
    const res = await fetch(`${mock.url}/v1/responses`, {
      method: "POST",
      body: JSON.stringify({
        model: "gpt-5",
        stream: true,
        input: [{ type: "function_call_output", call_id: "call_Z", output: "x" }],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { message: "No tool call found for function call output with call_id call_Z." },
    });
  });

  it("rejects a replayed function_call whose reasoning item was dropped", async () => {
    mock.enqueue({ thinking: { text: "plan" }, toolCalls: [{ name: "bash", input: {} }] });
    const first = await collect([user("go")], { providerOptions: stateless });
    const call = first.parts.find((p) => p.type === "tool-call");
    if (call?.type !== "tool-call") throw new Error("no tool call");
    const history: ModelMessage[] = [
      user("go"),
      ...first.messages.filter((m) => m.role === "assistant"),
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: call.toolCallId,
            toolName: "bash",
            output: { type: "text", value: "" },
          },
        ],
      },
    ];
    const { error } = await collect(history, {
      providerOptions: stateless,
      // The SDK sends function calls without their item id; a client that sends it must keep the reasoning.
      mutate: (body) => {
        body.input = body.input.filter((item) => item.type !== "reasoning");
        for (const item of body.input)
          if (item.type === "function_call") item.id = call.providerMetadata?.openai?.itemId;
      },
    });
    expect((error as APICallError).statusCode).toBe(400);
    expect(mock.requests[1].validationError).toMatch(
      /^Item 'fc_\w+' of type 'function_call' was provided without its required 'reasoning' item: 'rs_\w+'\.$/,
    );
  });

  it("answers a scripted error in OpenAI's shape", async () => {
    mock.enqueue({ error: { status: 429, message: "Rate limit reached" } });
    const { error } = await collect([user("hi")]);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(429);
    expect(apiError.message).toBe("Rate limit reached");
    expect(JSON.parse(apiError.responseBody ?? "{}")).toMatchObject({
      error: { message: "Rate limit reached", code: "rate_limit_exceeded" },
    });
  });

  it("is scriptable over the HTTP control API", async () => {
    const client = mockProviderClient(mock.url);
    await client.script({ text: ["over ", "http"], holdUntilReleased: "gate" });
    const result = streamText({ model: model(), prompt: "hi", maxRetries: 0 });
    const reader = result.textStream[Symbol.asyncIterator]();
    expect((await reader.next()).value).toBe("over ");
    await client.release("gate");
    expect((await reader.next()).value).toBe("http");
    await result.consumeStream();
    const requests = await client.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ provider: "openai", status: 200, turn: { text: ["over ", "http"] } });
    await client.reset();
    expect(await client.requests()).toEqual([]);
    await expect(client.script({ text: 5 } as never)).rejects.toThrow(/400/);
  });
});
