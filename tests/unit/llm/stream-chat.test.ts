/**
 * `streamAssistant` against the mock provider's Chat Completions endpoint, through OpenAI's own Chat Completions
 * model (`api: "openai-completions"` on provider `openai`) and through the OpenAI-compatible provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Env, type Model, resolveModel } from "@/lib/llm/models";
import { streamAssistant } from "@/lib/llm/stream";
import type { AssistantMessage, Message } from "@/lib/llm/types";
import { type MockProvider, startMockProvider } from "@/tests/mock-provider";
import { collect, mockEnv, shape, user } from "./helpers";

let mock: MockProvider;
let env: Env;
let chat: Model;
let compat: Model;
beforeAll(async () => {
  mock = await startMockProvider();
  env = {
    ...mockEnv(mock),
    OPENAI_COMPATIBLE_BASE_URL: `${mock.url}/v1`,
    OPENAI_COMPATIBLE_MODELS: "deepseek-chat",
    STRATA_MODELS: JSON.stringify([
      { provider: "openai", id: "gpt-4.1", api: "openai-completions" },
      {
        provider: "openai-compatible",
        id: "deepseek-chat",
        reasoning: true,
        compat: { requiresReasoningContentOnAssistantMessages: true },
      },
    ]),
  };
  chat = resolveModel("openai/gpt-4.1", env) as Model;
  compat = resolveModel("openai-compatible/deepseek-chat", env) as Model;
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => mock.reset());

const final = (events: Awaited<ReturnType<typeof collect>>): AssistantMessage => {
  const last = events.at(-1);
  if (last?.type === "done") return last.message;
  throw new Error(
    `stream ended with ${last?.type}: ${last?.type === "error" ? last.error.errorMessage : ""}`,
  );
};

describe("streamAssistant: Chat Completions (mock provider)", () => {
  it("OpenAI's Chat Completions: text and a tool call, usage and the request on /v1/chat/completions", async () => {
    mock.enqueue({
      text: ["Rea", "ding"],
      toolCalls: [{ id: "call_1", name: "read", input: { path: "a.ts" } }],
      usage: { input: 7, output: 3 },
    });
    const events = await collect(
      streamAssistant(chat, { systemPrompt: "S", messages: [user("go")], tools: [] }, { env }),
    );
    expect(shape(events).map((e) => e.type)).toEqual([
      "start",
      "text_start",
      "text_delta",
      "text_delta",
      "toolcall_start",
      "toolcall_delta",
      "toolcall_delta",
      "toolcall_delta",
      // the AI SDK's Chat Completions model closes the text when the stream finishes
      "text_end",
      "toolcall_end",
      "done",
    ]);
    const message = final(events);
    expect(message.content).toEqual([
      { type: "text", text: "Reading" },
      { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.ts" } },
    ]);
    expect(message).toMatchObject({
      api: "openai-completions",
      provider: "openai",
      model: "gpt-4.1",
      stopReason: "toolUse",
    });
    expect(message.usage).toMatchObject({ input: 7, output: 3 });
    expect(mock.requests.map((r) => [r.provider, r.path, r.status])).toEqual([
      ["openai-chat", "/v1/chat/completions", 200],
    ]);
    expect(mock.requests[0]?.body).toMatchObject({ model: "gpt-4.1", store: false, stream: true });
  });

  it("DeepSeek-style compat: reasoning streams as thinking and is echoed as reasoning_content with the call", async () => {
    mock.enqueue({
      thinking: { text: ["I need ", "a.ts"] },
      toolCalls: [{ id: "call_1", name: "read", input: { path: "a.ts" } }],
    });
    const first = final(
      await collect(
        streamAssistant(
          compat,
          { systemPrompt: "S", messages: [user("go")], tools: [] },
          { env, thinkingLevel: "high" },
        ),
      ),
    );
    expect(first.content[0]).toEqual({ type: "thinking", thinking: "I need a.ts" });
    const history: Message[] = [
      user("go"),
      first,
      {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "read",
        content: [{ type: "text", text: "x" }],
        isError: false,
        timestamp: 3,
      },
    ];
    mock.enqueue({ text: "Done." });
    final(
      await collect(
        streamAssistant(
          compat,
          { systemPrompt: "S", messages: history, tools: [] },
          { env, thinkingLevel: "high" },
        ),
      ),
    );
    const replayed = (mock.requests[1]?.body as { messages: Record<string, unknown>[]; tools?: unknown }) ?? {
      messages: [],
    };
    expect(replayed.messages.filter((m) => m.role === "assistant")).toEqual([
      {
        role: "assistant",
        content: null,
        reasoning_content: "I need a.ts",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
        ],
      },
    ]);
    expect(replayed.tools).toEqual([]);
    expect(mock.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it("the mock refuses a tool message that answers no call, with OpenAI's 400", async () => {
    const response = await fetch(`${mock.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        stream: true,
        messages: [{ role: "tool", tool_call_id: "x", content: "r" }],
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (messages[0])",
    );
  });
});
