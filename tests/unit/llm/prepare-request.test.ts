import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import {
  EmptyRequestError,
  prepareRequest,
  renderSystemMessageUpdate,
  TOOL_RESULT_IMAGES_TEXT,
  TOOL_RESULTS_BRIDGE,
} from "@/lib/llm/prepare-request";
import { SKIP_THOUGHT_SIGNATURE } from "@/lib/llm/to-model-messages";
import { type AssistantMessage, emptyUsage, type Message } from "@/lib/llm/types";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const claude = model("claude-sonnet-4-5");
const gpt = model("gpt-5");
const gemini = model("gemini-3-pro-preview");
const mistral = model("mistral-medium-2508");
const compat: Model = {
  ...model("gpt-4.1"),
  id: "qwen3-vl",
  name: "qwen3-vl",
  provider: "openai-compatible",
  api: "openai-completions",
  reasoning: true,
};
const assistant = (content: AssistantMessage["content"], source: Model): AssistantMessage => ({
  role: "assistant",
  content,
  api: source.api,
  provider: source.provider,
  model: source.id,
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 2,
});
const loop = (source: Model, content: AssistantMessage["content"]): Message[] => [
  { role: "user", content: "go", timestamp: 1 },
  assistant(content, source),
  {
    role: "toolResult",
    toolCallId: "t1",
    toolName: "read",
    content: [{ type: "text", text: "x" }],
    isError: false,
    timestamp: 3,
  },
];
const call = { type: "toolCall" as const, id: "t1", name: "read", arguments: {} };
const ctx = (messages: Message[]) => ({ systemPrompt: "S", messages, tools: [] });

describe("prepareRequest", () => {
  it("fix c: Gemini function calls from another model carry the skip-validator signature", () => {
    expect(SKIP_THOUGHT_SIGNATURE).toBe("skip_thought_signature_validator");
    const { messages } = prepareRequest(gemini, ctx(loop(claude, [call])));
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        {
          type: "tool-call",
          toolCallId: "t1",
          toolName: "read",
          input: {},
          providerOptions: { google: { thoughtSignature: SKIP_THOUGHT_SIGNATURE } },
        },
      ],
    });
  });

  it("Gemini: a same-model call keeps its own valid signature, else (missing or not base64) gets the skip value", () => {
    const toolCall = (signature: string) => ({
      type: "tool-call",
      toolCallId: "t1",
      toolName: "read",
      input: {},
      providerOptions: { google: { thoughtSignature: signature } },
    });
    const own = prepareRequest(gemini, ctx(loop(gemini, [{ ...call, thoughtSignature: "QUJDRA==" }])));
    expect(own.messages[1]).toEqual({ role: "assistant", content: [toolCall("QUJDRA==")] });
    const invalid = prepareRequest(gemini, ctx(loop(gemini, [{ ...call, thoughtSignature: "not base64!" }])));
    expect(invalid.messages[1]).toEqual({ role: "assistant", content: [toolCall(SKIP_THOUGHT_SIGNATURE)] });
    // Gemini signs only the first call of a parallel batch: the second one gets the skip value too.
    const parallel = prepareRequest(
      gemini,
      ctx([
        { role: "user", content: "go", timestamp: 1 },
        assistant(
          [
            { ...call, thoughtSignature: "QUJDRA==" },
            { ...call, id: "t2" },
          ],
          gemini,
        ),
      ]),
    );
    expect(parallel.messages[1]).toEqual({
      role: "assistant",
      content: [toolCall("QUJDRA=="), { ...toolCall(SKIP_THOUGHT_SIGNATURE), toolCallId: "t2" }],
    });
  });

  it("Gemini: blank thinking is not sent even when signed", () => {
    const { messages } = prepareRequest(
      gemini,
      ctx([
        { role: "user", content: "go", timestamp: 1 },
        assistant(
          [
            { type: "thinking", thinking: " \n", thinkingSignature: "QUJDRA==" },
            { type: "text", text: "done" },
          ],
          gemini,
        ),
        { role: "user", content: "next", timestamp: 3 },
      ]),
    );
    expect(messages).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
      { role: "user", content: "next" },
    ]);
  });

  it("Gemini: consecutive assistant messages become one model turn, so a call follows a user turn", () => {
    const { messages } = prepareRequest(
      gemini,
      ctx([
        { role: "user", content: "go", timestamp: 1 },
        { ...assistant([{ type: "text", text: "first" }], claude), stopReason: "stop" },
        assistant([call], claude),
        {
          role: "toolResult",
          toolCallId: "t1",
          toolName: "read",
          content: [{ type: "text", text: "x" }],
          isError: false,
          timestamp: 3,
        },
      ]),
    );
    expect(messages).toEqual([
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "first" },
          {
            type: "tool-call",
            toolCallId: "t1",
            toolName: "read",
            input: {},
            providerOptions: { google: { thoughtSignature: SKIP_THOUGHT_SIGNATURE } },
          },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "t1", toolName: "read", output: { type: "text", value: "x" } },
        ],
      },
    ]);
  });

  const imageResult: Message = {
    role: "toolResult",
    toolCallId: "abcdefghi",
    toolName: "read",
    content: [{ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }],
    isError: false,
    timestamp: 3,
  };
  const imageLoop = (target: Model): Message[] => [
    { role: "user", content: "go", timestamp: 1 },
    assistant([{ ...call, id: "abcdefghi" }], target),
    imageResult,
    { role: "user", content: "next", timestamp: 4 },
  ];
  const toolText = {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "abcdefghi",
        toolName: "read",
        output: { type: "text", value: "(see attached image)" },
      },
    ],
  };
  const attached = {
    role: "user",
    content: [
      { type: "text", text: TOOL_RESULT_IMAGES_TEXT },
      { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
    ],
  };

  it("Chat Completions: tool-result images follow as a user message, not as JSON text in the tool message", () => {
    expect(TOOL_RESULT_IMAGES_TEXT).toBe("Attached image(s) from tool result:");
    const { messages } = prepareRequest(compat, ctx(imageLoop(compat)));
    expect(messages.slice(2)).toEqual([toolText, attached, { role: "user", content: "next" }]);
  });

  it("Chat Completions: an assistant message with only reasoning is dropped", () => {
    const { messages } = prepareRequest(
      compat,
      ctx([
        { role: "user", content: "go", timestamp: 1 },
        {
          ...assistant(
            [{ type: "thinking", thinking: "hmm", thinkingSignature: "reasoning_content" }],
            compat,
          ),
          stopReason: "stop",
        },
        { role: "user", content: "next", timestamp: 3 },
      ]),
    );
    expect(messages).toEqual([
      { role: "user", content: "go" },
      { role: "user", content: "next" },
    ]);
  });

  it("Mistral: pi's bridge assistant sits between tool results and a user message", () => {
    expect(TOOL_RESULTS_BRIDGE).toBe("I have processed the tool results.");
    const bridge = { role: "assistant", content: [{ type: "text", text: TOOL_RESULTS_BRIDGE }] };
    const images = prepareRequest(mistral, ctx(imageLoop(mistral)));
    expect(images.messages.slice(2)).toEqual([toolText, bridge, attached, { role: "user", content: "next" }]);
    const text = prepareRequest(
      mistral,
      ctx([
        ...loop(mistral, [{ ...call, id: "abcdefghi" }]).slice(0, 2),
        { ...imageResult, content: [{ type: "text", text: "r" }] },
        { role: "user", content: "next", timestamp: 4 },
      ]),
    );
    expect(text.messages.slice(3)).toEqual([bridge, { role: "user", content: "next" }]);
  });

  it("Anthropic thinking is allowed only when a continued tool loop starts with signed thinking", () => {
    expect(prepareRequest(claude, ctx(loop(gpt, [call])), { thinking: true }).thinkingAllowed).toBe(false);
    const signed = loop(claude, [{ type: "thinking", thinking: "t", thinkingSignature: "sig" }, call]);
    expect(prepareRequest(claude, ctx(signed), { thinking: true }).thinkingAllowed).toBe(true);
  });

  it("Responses: reasoning without encrypted content or without a following item is dropped", () => {
    const item = (id: string, enc?: string) =>
      JSON.stringify({ type: "reasoning", id, ...(enc ? { encrypted_content: enc } : {}), summary: [] });
    const { messages } = prepareRequest(
      gpt,
      ctx([
        { role: "user", content: "go", timestamp: 1 },
        {
          ...assistant(
            [
              { type: "thinking", thinking: "a", thinkingSignature: item("rs_1") },
              { type: "text", text: "one" },
              { type: "thinking", thinking: "b", thinkingSignature: item("rs_2", "E") },
              { type: "text", text: "two" },
              { type: "thinking", thinking: "c", thinkingSignature: item("rs_3", "E") },
            ],
            gpt,
          ),
          stopReason: "stop",
        },
      ]),
      { thinking: false },
    );
    const parts = (messages[1] as { content: { type: string; text: string }[] }).content;
    expect(parts.map((p) => `${p.type}:${p.text}`)).toEqual(["text:one", "reasoning:b", "text:two"]);
  });

  it("14.20: system messages collapse by default and stay in place with the compat flag", () => {
    const messages: Message[] = [
      { role: "user", content: "go", timestamp: 1 },
      { role: "system", content: "", sections: { tools: "T2", cwd: null }, timestamp: 2 },
      { role: "user", content: "more", timestamp: 3 },
    ];
    expect(prepareRequest(gpt, ctx(messages)).system).toBe("S\n\nT2");
    expect(prepareRequest(gpt, ctx(messages)).messages.map((m) => m.role)).toEqual(["user", "user"]);
    const kept = prepareRequest({ ...gpt, compat: { supportsMidConvoSystemMessages: true } }, ctx(messages));
    expect(kept.messages[1]).toEqual({
      role: "system",
      content: 'Updated system prompt section "tools":\n\nT2\n\nRemoved system prompt section "cwd".',
    });
    expect(
      prepareRequest({ ...gemini, compat: { supportsMidConvoSystemMessages: true } }, ctx(messages)).system,
    ).toBe("S\n\nT2");
    expect(renderSystemMessageUpdate({ role: "system", content: "x", timestamp: 0 })).toBe("x");
  });

  it("throws EmptyRequestError when nothing is left to send", () => {
    expect(() => prepareRequest(claude, ctx([{ role: "user", content: " ", timestamp: 1 }]))).toThrow(
      EmptyRequestError,
    );
  });
});
