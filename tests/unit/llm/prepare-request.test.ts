import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { EmptyRequestError, prepareRequest, renderSystemMessageUpdate } from "@/lib/llm/prepare-request";
import { SKIP_THOUGHT_SIGNATURE } from "@/lib/llm/to-model-messages";
import { type AssistantMessage, emptyUsage, type Message } from "@/lib/llm/types";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const claude = model("claude-sonnet-4-5");
const gpt = model("gpt-5");
const gemini = model("gemini-3-pro-preview");
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
    const own = prepareRequest(gemini, ctx(loop(gemini, [{ ...call, thoughtSignature: "not base64!" }])));
    expect(own.messages[1]).toMatchObject({ content: [{ type: "tool-call", toolCallId: "t1" }] });
    expect(
      (own.messages[1] as { content: { providerOptions?: unknown }[] }).content[0]?.providerOptions,
    ).toBeUndefined();
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
