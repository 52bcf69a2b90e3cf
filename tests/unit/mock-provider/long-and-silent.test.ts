/**
 * The mock provider's scripts for misbehaving providers: `bulkText` (a long answer without scripting its text),
 * `chunkBytes` of a tool call (its arguments in many small deltas) and `holdAt: "headers"` (200 and then nothing),
 * in each wire format, read through the AI SDK's own providers.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { jsonSchema, type LanguageModel, streamText, tool } from "ai";
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

const models: Record<string, () => LanguageModel> = {
  anthropic: () => createAnthropic({ baseURL: `${mock.url}/v1`, apiKey: "test" })("claude-sonnet-4-5"),
  "openai responses": () => createOpenAI({ baseURL: `${mock.url}/v1`, apiKey: "test" }).responses("gpt-5"),
  "openai chat": () => createOpenAI({ baseURL: `${mock.url}/v1`, apiKey: "test" }).chat("gpt-4o"),
};

describe.each(Object.keys(models))("mock provider, %s", (name) => {
  it("bulkText streams its bytes of x after the text, in deltas of chunkBytes; the log keeps the spec", async () => {
    mock.enqueue({ text: "start:", bulkText: { bytes: 2500, chunkBytes: 1000 } });
    const result = streamText({ model: models[name](), prompt: "hi", maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.map((d) => d.length)).toEqual([6, 1000, 1000, 500]);
    expect(deltas.join("")).toBe(`start:${"x".repeat(2500)}`);
    expect(mock.requests[0].turn).toEqual({ text: "start:", bulkText: { bytes: 2500, chunkBytes: 1000 } });
  });

  it("a tool call's chunkBytes splits its argument JSON into deltas of that size", async () => {
    const input = { path: "a.txt", content: "y".repeat(100) };
    mock.enqueue({ toolCalls: [{ id: "call_1", name: "write", input, chunkBytes: 32 }] });
    const result = streamText({
      model: models[name](),
      prompt: "hi",
      maxRetries: 0,
      tools: { write: tool({ inputSchema: jsonSchema({ type: "object" }) }) },
    });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === "tool-input-delta") deltas.push(part.delta);
    const json = JSON.stringify(input);
    expect(json.length).toBe(129);
    expect(deltas.filter((d) => d !== "").map((d) => d.length)).toEqual([32, 32, 32, 32, 1]);
    expect(deltas.join("")).toBe(json);
  });
});

it('holdAt "headers" answers 200 with its headers and sends no byte of the body until the gate opens', async () => {
  mock.enqueue({ text: ["after", " the gate"], holdUntilReleased: "open", holdAt: "headers" });
  const res = await fetch(`${mock.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "test", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({
      model: "m",
      max_tokens: 10,
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    }),
  });
  // The headers arrived; not one frame was written.
  expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/event-stream; charset=utf-8"]);
  expect([mock.requests[0].timing?.deltas, mock.requests[0].timing?.endedAt]).toEqual([0, undefined]);
  const body = res.text();
  mock.release("open");
  const text = await body;
  expect(text.startsWith("event: message_start\n")).toBe(true);
  expect(text).toContain('"text":" the gate"');
  expect(mock.requests[0].timing?.deltas).toBe(2);
});
