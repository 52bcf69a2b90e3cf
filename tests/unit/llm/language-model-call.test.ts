/**
 * `streamAssistant` calls the provider's `doStream` directly: the request body must be the one `streamText`
 * builds from the same prepared request, for every catalog model, with and without thinking. The context mixes
 * what a session holds: text and image prompts, thinking with signatures, text, tool calls of two models, text
 * and image tool results, an error result.
 */
import { jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { toLanguageModelPrompt } from "@/lib/llm/language-model-call";
import { type Env, getAvailableModels, type Model, PROVIDER_ENV, PROVIDERS } from "@/lib/llm/models";
import { prepareRequest } from "@/lib/llm/prepare-request";
import { fixRequestBody, needsBodyFix } from "@/lib/llm/provider-wire";
import { createLanguageModel } from "@/lib/llm/providers";
import { requestSettings, type StreamContext, streamAssistant } from "@/lib/llm/stream";
import { type AssistantMessage, emptyUsage, type ThinkingLevel } from "@/lib/llm/types";

const ENV: Env = Object.fromEntries([
  ...PROVIDERS.map((provider) => [PROVIDER_ENV[provider].apiKey, "k"]),
  ["OPENAI_COMPATIBLE_BASE_URL", "http://compat.invalid/v1"],
  ["OPENAI_COMPATIBLE_MODELS", "compat-model"],
]);

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

const assistant = (
  provider: string,
  api: string,
  model: string,
  content: AssistantMessage["content"],
): AssistantMessage => ({
  role: "assistant",
  content,
  api,
  provider,
  model,
  usage: emptyUsage(),
  stopReason: content.some((c) => c.type === "toolCall") ? "toolUse" : "stop",
  timestamp: 2,
});

const context: StreamContext = {
  systemPrompt: "You are a coding agent.",
  tools: [
    {
      name: "read",
      description: "Read a file",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ],
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this screenshot and in a.ts?" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      timestamp: 1,
    },
    assistant("openai", "openai-responses", "gpt-5", [
      {
        type: "thinking",
        thinking: "Look at the file.",
        thinkingSignature: JSON.stringify({
          type: "reasoning",
          id: "rs_abc",
          encrypted_content: "enc",
          summary: [{ type: "summary_text", text: "Look at the file." }],
        }),
      },
      { type: "text", text: "Reading.", textSignature: JSON.stringify({ v: 1, id: "msg_abc" }) },
      { type: "toolCall", id: "call_1", name: "read", arguments: { path: "a.ts" } },
      { type: "toolCall", id: "call_2", name: "read", arguments: { path: "b.png" } },
    ]),
    {
      role: "toolResult",
      toolCallId: "call_1",
      toolName: "read",
      content: [{ type: "text", text: "export const a = 1;" }],
      isError: false,
      timestamp: 3,
    },
    {
      role: "toolResult",
      toolCallId: "call_2",
      toolName: "read",
      content: [{ type: "image", data: PNG, mimeType: "image/png" }],
      isError: false,
      timestamp: 3,
    },
    assistant("anthropic", "anthropic-messages", "claude-sonnet-4-5", [
      { type: "thinking", thinking: "Now b.", thinkingSignature: "c2lnbmF0dXJl" },
      { type: "toolCall", id: "toolu_01abc", name: "read", arguments: { path: "missing.ts" } },
    ]),
    {
      role: "toolResult",
      toolCallId: "toolu_01abc",
      toolName: "read",
      content: [{ type: "text", text: "ENOENT" }],
      isError: true,
      timestamp: 4,
    },
    { role: "user", content: "Thanks. Summarise.", timestamp: 5 },
  ],
};

type Body = { url: string; body: unknown };

function hook(sink: Partial<Body>): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    sink.url = String(input);
    sink.body = JSON.parse(String(init?.body));
    throw new Error("captured");
  }) as typeof fetch;
}

/**
 * The body `streamText` sends for the same prepared request (what `streamAssistant` did before), with Strata's
 * wire fix-ups applied as `streamAssistant` applies them (lib/llm/provider-wire.ts).
 */
async function viaStreamText(model: Model, level: ThinkingLevel): Promise<Partial<Body>> {
  const sink: Partial<Body> = {};
  const thinking = model.reasoning && level !== "off";
  const { system, tools, messages, thinkingAllowed, wire } = prepareRequest(model, context, { thinking });
  const settings = requestSettings(model, { thinkingLevel: thinkingAllowed ? level : "off" });
  const result = streamText({
    model: createLanguageModel(model, ENV, { fetch: hook(sink) }),
    system: system === "" ? undefined : system,
    messages,
    tools: Object.fromEntries(
      tools.map((t) => [
        t.name,
        tool({ description: t.description, inputSchema: jsonSchema(t.parameters as never) }),
      ]),
    ),
    maxOutputTokens: settings.maxOutputTokens,
    providerOptions: settings.providerOptions as never,
    maxRetries: 0,
    onError: () => {},
  });
  for await (const _ of result.fullStream) {
    // drain
  }
  if (needsBodyFix(model.api, wire)) sink.body = fixRequestBody(model.api, sink.body, wire);
  return sink;
}

async function viaStreamAssistant(model: Model, level: ThinkingLevel): Promise<Partial<Body>> {
  const sink: Partial<Body> = {};
  for await (const _ of streamAssistant(model, context, {
    env: ENV,
    fetch: hook(sink),
    thinkingLevel: level,
  })) {
    // drain
  }
  return sink;
}

describe("direct provider call", () => {
  const models = getAvailableModels(ENV);
  it("covers every provider", () => {
    expect(new Set(models.map((m) => m.provider))).toEqual(new Set(PROVIDERS));
  });

  for (const model of models)
    for (const level of ["off", "medium"] as ThinkingLevel[])
      it(`${model.provider}/${model.id}, thinking ${level}: the body streamText builds`, async () => {
        const expected = await viaStreamText(model, level);
        expect(expected.body).toBeDefined();
        expect(await viaStreamAssistant(model, level)).toEqual(expected);
      });

  it("merges consecutive tool messages and drops empty user text, as convertToLanguageModelPrompt", () => {
    const messages: ModelMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "image", image: PNG, mediaType: "image/png" },
        ],
      },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "t1", toolName: "read", input: {} }] },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "t1", toolName: "read", output: { type: "text", value: "a" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "t2", toolName: "read", output: { type: "text", value: "b" } },
        ],
      },
    ];
    const prompt = toLanguageModelPrompt("sys", messages);
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(prompt[1].content).toEqual([
      { type: "file", mediaType: "image/png", filename: undefined, data: PNG, providerOptions: undefined },
    ]);
    expect(prompt[3].content).toHaveLength(2);
  });
});
