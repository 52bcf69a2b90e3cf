/**
 * Chat Completions gaps to pi (14.15, 14.16 and `compat.requiresReasoningContentOnAssistantMessages`): `tools: []`
 * with a tool history and no declared tools, OpenAI's own Chat Completions provider, and reasoning replay for
 * models that need `reasoning_content` on every assistant message. Exact bodies, as the AI SDK would send them.
 */
import { describe, expect, it } from "vitest";
import { getAvailableModels, MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { type AssistantMessage, emptyUsage, type Message } from "@/lib/llm/types";
import { captureRequestBody } from "@/tests/property/request-body";

const claude = MODEL_CATALOG.find((m) => m.id === "claude-sonnet-4-5") as Model;
const COMPAT_ENV = { OPENAI_COMPATIBLE_BASE_URL: "http://compat.invalid/v1", OPENAI_COMPATIBLE_MODELS: "m" };

/** The one available model of an environment with `STRATA_MODELS` = `custom`. */
function configured(env: Record<string, string>, custom: unknown[]): Model {
  const models = getAvailableModels({ ...env, STRATA_MODELS: JSON.stringify(custom) });
  const entry = custom[0] as { id: string };
  return models.find((m) => m.id === entry.id) as Model;
}

const turn = (source: Pick<Model, "api" | "provider" | "id">, content: AssistantMessage["content"]) =>
  ({
    role: "assistant",
    content,
    api: source.api,
    provider: source.provider,
    model: source.id,
    usage: emptyUsage(),
    stopReason: content.some((b) => b.type === "toolCall") ? "toolUse" : "stop",
    timestamp: 2,
  }) satisfies AssistantMessage;

const result = (id: string): Message => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text: "ok" }],
  isError: false,
  timestamp: 3,
});

async function body(
  target: Model,
  messages: Message[],
  tools: { name: string; description: string; parameters: Record<string, unknown> }[] = [],
  level: "off" | "medium" = "off",
) {
  const capture = await captureRequestBody(target, { systemPrompt: "S", messages, tools }, level);
  if ("error" in capture) throw new Error(capture.error);
  return capture;
}

describe("Chat Completions: tools: [] (pi 14.15)", () => {
  const target = getAvailableModels(COMPAT_ENV)[0] as Model;
  const calls: Message[] = [
    { role: "user", content: "go", timestamp: 1 },
    turn(target, [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]),
    result("call_1"),
    { role: "user", content: "and now?", timestamp: 4 },
  ];

  it("a history with tool calls and no declared tools sends tools: []", async () => {
    expect((await body(target, calls)).body.tools).toEqual([]);
  });

  it("no tool history, no tools: no tools field", async () => {
    const { body: sent } = await body(target, [{ role: "user", content: "hi", timestamp: 1 }]);
    expect("tools" in sent).toBe(false);
  });

  it("declared tools are sent as they are", async () => {
    const tool = { name: "read", description: "Read", parameters: { type: "object", properties: {} } };
    expect((await body(target, calls, [tool])).body.tools).toEqual([
      {
        type: "function",
        function: { name: "read", description: "Read", parameters: { type: "object", properties: {} } },
      },
    ]);
  });
});

describe("OpenAI Chat Completions as its own provider", () => {
  const env = { OPENAI_API_KEY: "k" };

  it("STRATA_MODELS api openai-completions: OpenAI's /chat/completions, store: false, system role", async () => {
    const target = configured(env, [{ provider: "openai", id: "gpt-4.1", api: "openai-completions" }]);
    expect(target.api).toBe("openai-completions");
    const calls: Message[] = [
      { role: "user", content: "go", timestamp: 1 },
      turn(target, [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } }]),
      result("call_1"),
    ];
    expect(await body(target, calls)).toEqual({
      url: "https://api.openai.com/v1/chat/completions",
      body: {
        model: "gpt-4.1",
        max_tokens: 32_768,
        store: false,
        messages: [
          { role: "system", content: "S" },
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: "ok" },
        ],
        tools: [],
        stream: true,
        stream_options: { include_usage: true },
      },
    });
  });

  it("a reasoning model gets the developer role and reasoning_effort, as pi's compat for api.openai.com", async () => {
    const target = configured(env, [{ provider: "openai", id: "gpt-5-mini", api: "openai-completions" }]);
    const { body: sent } = await body(target, [{ role: "user", content: "hi", timestamp: 1 }], [], "medium");
    expect(sent).toEqual({
      model: "gpt-5-mini",
      max_completion_tokens: 128_000,
      store: false,
      reasoning_effort: "medium",
      messages: [
        { role: "developer", content: "S" },
        { role: "user", content: "hi" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("ids without '|' are cut to 40 characters for provider openai (pi 14.14)", async () => {
    const target = configured(env, [{ provider: "openai", id: "gpt-4.1", api: "openai-completions" }]);
    const long = `toolu_${"x".repeat(50)}`;
    const { body: sent } = await body(target, [
      { role: "user", content: "go", timestamp: 1 },
      turn(claude, [{ type: "toolCall", id: long, name: "read", arguments: {} }]),
      result(long),
    ]);
    const messages = sent.messages as { role: string; tool_call_id?: string }[];
    expect(messages.at(-1)?.tool_call_id).toBe(long.slice(0, 40));
  });
});

describe("compat.requiresReasoningContentOnAssistantMessages (DeepSeek thinking mode)", () => {
  const deepseek = { provider: "openai-compatible", id: "m", reasoning: true };
  const flagged = configured(COMPAT_ENV, [
    { ...deepseek, compat: { requiresReasoningContentOnAssistantMessages: true } },
  ]);
  const plain = configured(COMPAT_ENV, [deepseek]);
  const history = (target: Model): Message[] => [
    { role: "user", content: "go", timestamp: 1 },
    turn(claude, [
      { type: "thinking", thinking: "claude thinks", thinkingSignature: "sig" },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: {} },
    ]),
    result("toolu_1"),
    turn(target, [
      { type: "thinking", thinking: "I should read b." },
      { type: "toolCall", id: "call_2", name: "read", arguments: {} },
    ]),
    result("call_2"),
  ];
  const assistants = (sent: Record<string, unknown>) =>
    (sent.messages as Record<string, unknown>[]).filter((m) => m.role === "assistant");

  it("the model's own thinking is echoed as reasoning_content; another model's turn gets reasoning_content ''", async () => {
    const { body: sent } = await body(flagged, history(flagged), [], "medium");
    expect(assistants(sent)).toEqual([
      {
        role: "assistant",
        content: "claude thinks",
        tool_calls: [{ id: "toolu_1", type: "function", function: { name: "read", arguments: "{}" } }],
        reasoning_content: "",
      },
      {
        role: "assistant",
        content: null,
        reasoning_content: "I should read b.",
        tool_calls: [{ id: "call_2", type: "function", function: { name: "read", arguments: "{}" } }],
      },
    ]);
  });

  it("without the flag another model's turn has no reasoning_content", async () => {
    const { body: sent } = await body(plain, history(plain), [], "medium");
    expect(assistants(sent).map((m) => m.reasoning_content)).toEqual([undefined, "I should read b."]);
  });

  it("is detected for a DeepSeek base URL: no hand-set flag, and an explicit false turns it off", async () => {
    const env = { OPENAI_COMPATIBLE_BASE_URL: "https://api.deepseek.com/v1", OPENAI_COMPATIBLE_MODELS: "m" };
    const detected = configured(env, [deepseek]);
    expect(detected.compat?.requiresReasoningContentOnAssistantMessages).toBe(true);
    const { body: sent } = await body(detected, history(detected), [], "medium");
    expect(assistants(sent).map((m) => m.reasoning_content)).toEqual(["", "I should read b."]);
    const off = configured(env, [
      { ...deepseek, compat: { requiresReasoningContentOnAssistantMessages: false } },
    ]);
    const { body: plainBody } = await body(off, history(off), [], "medium");
    expect(assistants(plainBody).map((m) => m.reasoning_content)).toEqual([undefined, "I should read b."]);
  });

  it("the flag needs a reasoning model", async () => {
    const text = configured(COMPAT_ENV, [
      {
        provider: "openai-compatible",
        id: "m",
        compat: { requiresReasoningContentOnAssistantMessages: true },
      },
    ]);
    const { body: sent } = await body(text, history(text));
    expect(assistants(sent).map((m) => m.reasoning_content)).toEqual([undefined, "I should read b."]);
  });
});

describe("Chat Completions compat flags from STRATA_MODELS (pi's names)", () => {
  const base = { provider: "openai-compatible", id: "m", reasoning: true };
  const loop = (target: Model): Message[] => [
    { role: "user", content: "go", timestamp: 1 },
    turn(target, [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]),
    result("call_1"),
    { role: "user", content: "next", timestamp: 4 },
  ];

  it("without flags: the AI SDK's body", async () => {
    const target = configured(COMPAT_ENV, [base]);
    const { body: sent } = await body(target, loop(target));
    expect(sent).toEqual({
      model: "m",
      max_tokens: 16_384,
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "ok" },
        { role: "user", content: "next" },
      ],
      tools: [],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("supportsStore, supportsDeveloperRole, maxTokensField, requiresToolResultName, requiresAssistantAfterToolResult", async () => {
    const target = configured(COMPAT_ENV, [
      {
        ...base,
        compat: {
          supportsStore: true,
          supportsDeveloperRole: true,
          maxTokensField: "max_completion_tokens",
          requiresToolResultName: true,
          requiresAssistantAfterToolResult: true,
        },
      },
    ]);
    const { body: sent } = await body(target, loop(target));
    expect(sent).toEqual({
      model: "m",
      max_completion_tokens: 16_384,
      store: false,
      messages: [
        { role: "developer", content: "S" },
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "ok", name: "read" },
        { role: "assistant", content: "I have processed the tool results." },
        { role: "user", content: "next" },
      ],
      tools: [],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("supportsStore false and supportsDeveloperRole false on OpenAI's own Chat Completions", async () => {
    const target = configured({ OPENAI_API_KEY: "k" }, [
      {
        provider: "openai",
        id: "gpt-5-mini",
        api: "openai-completions",
        compat: { supportsStore: false, supportsDeveloperRole: false, maxTokensField: "max_tokens" },
      },
    ]);
    const { body: sent } = await body(target, [{ role: "user", content: "hi", timestamp: 1 }]);
    expect(sent).toEqual({
      model: "gpt-5-mini",
      max_tokens: 128_000,
      messages: [
        { role: "system", content: "S" },
        { role: "user", content: "hi" },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
