/**
 * Requests Strata never sends: a thinking-on request ending with an assistant turn (pi's agent refuses to continue
 * from one; providers refuse it as prefill), images without data; and the OpenAI Responses text-item ids of
 * docs/pi-differences.md. Plus the registry's `api` / `compat` fields in `STRATA_MODELS`.
 */
import { describe, expect, it } from "vitest";
import { getAvailableModels, MODEL_CATALOG, type Model, ModelConfigError } from "@/lib/llm/models";
import { AssistantPrefillError, prepareRequest } from "@/lib/llm/prepare-request";
import { transformMessages } from "@/lib/llm/transform-messages";
import { createTransformReport } from "@/lib/llm/transform-report";
import { type AssistantMessage, emptyUsage, type Message } from "@/lib/llm/types";
import { captureRequestBody } from "@/tests/property/request-body";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id) as Model;
const claude = model("claude-sonnet-4-5");
const PREFILL =
  "Cannot continue from message role: assistant (the request would end with an assistant message, which a model with thinking on refuses as prefill). Send a new message, or turn thinking off for this request.";

const answer = (source: Model, content: AssistantMessage["content"]): AssistantMessage => ({
  role: "assistant",
  content,
  api: source.api,
  provider: source.provider,
  model: source.id,
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 2,
});

const ctx = (messages: Message[]) => ({ systemPrompt: "S", messages, tools: [] });

describe("a request ending with an assistant turn", () => {
  const messages: Message[] = [
    { role: "user", content: "hi", timestamp: 1 },
    answer(claude, [{ type: "text", text: "Hel" }]),
  ];

  it("with thinking on is refused with pi's message (every provider)", async () => {
    for (const target of [claude, model("gpt-5"), model("gemini-2.5-pro")]) {
      expect(await captureRequestBody(target, ctx(messages), "medium")).toEqual({ error: PREFILL });
      expect(() => prepareRequest(target, ctx(messages), { thinking: true })).toThrow(AssistantPrefillError);
    }
  });

  it("with thinking off is sent as it is", async () => {
    const capture = await captureRequestBody(claude, ctx(messages), "off");
    expect("body" in capture && capture.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "Hel" }] },
    ]);
  });

  it("Anthropic: when the tool-loop rule turns thinking off, the request is not refused", () => {
    const gpt = model("gpt-5");
    const loop: Message[] = [
      { role: "user", content: "go", timestamp: 1 },
      {
        ...answer(gpt, [{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]),
        stopReason: "toolUse",
      },
      {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "read",
        content: [{ type: "text", text: "r" }],
        isError: false,
        timestamp: 3,
      },
    ];
    expect(prepareRequest(claude, ctx(loop), { thinking: true }).thinkingAllowed).toBe(false);
  });
});

describe("images without data are never sent", () => {
  it("a user image with empty data is dropped; a message left empty too", async () => {
    const capture = await captureRequestBody(
      claude,
      ctx([
        { role: "user", content: [{ type: "image", data: "", mimeType: "image/png" }], timestamp: 1 },
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", data: "", mimeType: "image/png" },
          ],
          timestamp: 2,
        },
      ]),
    );
    expect("body" in capture && capture.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "look" }] },
    ]);
  });

  it("a tool result whose only image is empty is sent as (no tool output)", async () => {
    const capture = await captureRequestBody(
      claude,
      ctx([
        { role: "user", content: "go", timestamp: 1 },
        {
          ...answer(claude, [{ type: "toolCall", id: "toolu_1", name: "shot", arguments: {} }]),
          stopReason: "toolUse",
        },
        {
          role: "toolResult",
          toolCallId: "toolu_1",
          toolName: "shot",
          content: [{ type: "image", data: "", mimeType: "image/png" }],
          isError: false,
          timestamp: 3,
        },
      ]),
    );
    const messages = ("body" in capture ? capture.body.messages : []) as { content: unknown[] }[];
    expect(messages.at(-1)?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "(no tool output)" },
    ]);
  });
});

describe("Google: a request never starts with a model turn (issue 26)", () => {
  const gemini3 = model("gemini-3-pro-preview");
  const emptyImage = { type: "image" as const, data: "", mimeType: "image/png" };
  const call: Message = {
    ...answer(gemini3, [{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" } }]),
    stopReason: "toolUse",
  };
  const result: Message = {
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "read",
    content: [{ type: "text", text: "A" }],
    isError: false,
    timestamp: 3,
  };

  it("the only user message is an empty image: its call turn goes too, and nothing is sent", async () => {
    const history: Message[] = [{ role: "user", content: [emptyImage], timestamp: 1 }, call, result];
    const report = createTransformReport();
    expect(transformMessages(history, gemini3, undefined, { report })).toEqual([]);
    // A dropped message keeps only its removal in the report.
    expect(report.changes.map((change) => [change.kind, change.messageIndex, change.detail])).toEqual([
      ["message_dropped", 0, { cause: "empty" }],
      ["message_dropped", 1, { cause: "before_first_user" }],
      ["result_dropped", 2, undefined],
    ]);
    expect(await captureRequestBody(gemini3, ctx(history), "high")).toEqual({
      error: "Nothing to send: the context has no message left after the provider replay rules",
    });
  });

  it("with a later user message, the request starts with it", async () => {
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: " " }, emptyImage], timestamp: 1 },
      call,
      result,
      { role: "user", content: "next", timestamp: 4 },
    ];
    const capture = await captureRequestBody(gemini3, ctx(history), "high");
    expect("body" in capture && capture.body.contents).toEqual([{ role: "user", parts: [{ text: "next" }] }]);
  });
});

describe("OpenAI Responses text item ids (docs/pi-differences.md)", () => {
  const item = (id: string) => JSON.stringify({ type: "reasoning", id, encrypted_content: "E", summary: [] });
  const signature = (id: string) => JSON.stringify({ v: 1, id });
  const history = (target: Model): Message[] => [
    { role: "user", content: "a", timestamp: 1 },
    answer(target, [
      { type: "text", text: "one", textSignature: signature("msg_1") },
      { type: "text", text: "two" },
    ]),
    { role: "user", content: "b", timestamp: 3 },
    answer(target, [
      { type: "thinking", thinking: "t", thinkingSignature: item("rs_1") },
      { type: "text", text: "three", textSignature: signature("msg_2") },
    ]),
    { role: "user", content: "c", timestamp: 4 },
  ];
  const ids = async (target: Model) => {
    const capture = await captureRequestBody(target, ctx(history(target)));
    const input = ("body" in capture ? capture.body.input : []) as {
      role?: string;
      id?: string;
      content?: { text: string }[];
    }[];
    return input.filter((i) => i.role === "assistant").map((i) => [i.content?.[0]?.text, i.id]);
  };

  it("a reasoning model: an id only after its reasoning item; text without an id is sent without one", async () => {
    expect(await ids(model("gpt-5"))).toEqual([
      ["one", undefined],
      ["two", undefined],
      ["three", "msg_2"],
    ]);
    const { messages } = prepareRequest(model("gpt-5"), ctx(history(model("gpt-5"))));
    const first = messages[1] as { content: { providerOptions?: unknown }[] };
    expect(first.content[0]?.providerOptions).toBeUndefined();
  });

  it("a model without reasoning: every valid msg_ id", async () => {
    expect(await ids(model("gpt-4.1"))).toEqual([
      ["one", "msg_1"],
      ["two", undefined],
      ["three", "msg_2"],
    ]);
  });
});

describe("STRATA_MODELS api and compat", () => {
  const env = { OPENAI_API_KEY: "k", OPENAI_COMPATIBLE_BASE_URL: "http://c/v1" };
  const read = (custom: unknown) => getAvailableModels({ ...env, STRATA_MODELS: JSON.stringify(custom) });

  it("sets the API of an openai model and the compat flags of a new one", () => {
    const models = read([
      { provider: "openai", id: "gpt-4.1", api: "openai-completions" },
      {
        provider: "openai-compatible",
        id: "deepseek-chat",
        reasoning: true,
        compat: { requiresReasoningContentOnAssistantMessages: true },
      },
    ]);
    expect(models.find((m) => m.id === "gpt-4.1")?.api).toBe("openai-completions");
    expect(models.find((m) => m.id === "gpt-5")?.api).toBe("openai-responses");
    expect(models.find((m) => m.id === "deepseek-chat")?.compat).toEqual({
      requiresReasoningContentOnAssistantMessages: true,
    });
    expect(models.find((m) => m.id === "gpt-5")).not.toHaveProperty("compat");
  });

  it("refuses an API the provider does not speak", () => {
    expect(() =>
      read([{ provider: "anthropic", id: "claude-sonnet-4-5", api: "openai-completions" }]),
    ).toThrow(
      new ModelConfigError(
        'STRATA_MODELS: 0.api: provider "anthropic" speaks "anthropic-messages", not "openai-completions"',
      ),
    );
  });

  it("refuses a compat flag Strata does not implement", () => {
    expect(() =>
      read([{ provider: "openai", id: "gpt-5", compat: { requiresThinkingAsText: true } }]),
    ).toThrow(
      /STRATA_MODELS must be a JSON array of models with "provider" and "id": 0\.compat: Unrecognized key: "requiresThinkingAsText"/,
    );
  });
});
