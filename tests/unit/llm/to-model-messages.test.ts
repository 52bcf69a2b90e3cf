import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { collapseSystemMessages, toModelMessages, toolResultOutput } from "@/lib/llm/to-model-messages";
import type { AssistantMessage, Message, ToolResultMessage } from "@/lib/llm/types";
import { emptyUsage } from "@/lib/llm/types";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const anthropic = model("claude-sonnet-4-5");
const openai = model("gpt-5");

const assistant = (content: AssistantMessage["content"], source: Model = anthropic): AssistantMessage => ({
  role: "assistant",
  content,
  api: source.api,
  provider: source.provider,
  model: source.id,
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 2,
});

const result = (content: ToolResultMessage["content"], isError = false): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: "t1",
  toolName: "read",
  content,
  isError,
  timestamp: 3,
});

describe("collapseSystemMessages", () => {
  it("folds the prompt and every system message into one prompt and one tool list (pi 3.21-3.25)", () => {
    const read = { name: "read", description: "Read", parameters: { type: "object" } };
    const bash = { name: "bash", description: "Bash", parameters: { type: "object" } };
    const messages: Message[] = [
      {
        role: "system",
        content: "",
        sections: { preamble: "P", tools: "<tools>\nT1\n</tools>", cwd: "<cwd>\n/a\n</cwd>" },
        timestamp: 1,
      },
      { role: "user", content: "hi", timestamp: 2 },
      {
        role: "system",
        content: [{ type: "text", text: "Note" }],
        sections: { tools: "<tools>\nT2\n</tools>", cwd: null, addendum: "A" },
        toolsAdded: [bash],
        toolsRemoved: [{ name: "read" }],
        timestamp: 3,
      },
      { role: "user", content: "again", timestamp: 4 },
    ];
    const collapsed = collapseSystemMessages({ systemPrompt: "Base.", messages, tools: [read] });
    expect(collapsed.systemPrompt).toBe("Base.\n\nNote\n\nP\n\n<tools>\nT2\n</tools>\n\nA");
    expect(collapsed.tools).toEqual([bash]);
    expect(collapsed.messages.map((m) => m.role)).toEqual(["user", "user"]);
  });

  it("gives an empty prompt for an empty context", () => {
    expect(collapseSystemMessages({ systemPrompt: "", messages: [], tools: [] })).toEqual({
      systemPrompt: "",
      tools: [],
      messages: [],
    });
  });
});

describe("toModelMessages", () => {
  it("converts user text and images", () => {
    expect(
      toModelMessages(
        [
          { role: "user", content: "plain", timestamp: 1 },
          {
            role: "user",
            content: [
              { type: "text", text: "see" },
              { type: "image", data: "iVBOR", mimeType: "image/png" },
            ],
            timestamp: 2,
          },
        ],
        anthropic,
      ),
    ).toEqual([
      { role: "user", content: "plain" },
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", image: "iVBOR", mediaType: "image/png" },
        ],
      },
    ]);
  });

  it("sends signatures only to the provider that made them and unsigned thinking to Anthropic as text", () => {
    const openaiItem = JSON.stringify({
      type: "reasoning",
      id: "rs_1",
      encrypted_content: "enc",
      summary: [],
    });
    const message = assistant([
      { type: "thinking", thinking: "signed", thinkingSignature: "sig" },
      { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "data", redacted: true },
      { type: "thinking", thinking: "from openai", thinkingSignature: openaiItem },
      { type: "thinking", thinking: "unsigned" },
      { type: "thinking", thinking: "  " },
      { type: "text", text: "" },
      { type: "text", text: "answer", textSignature: '{"v":1,"id":"msg_1"}' },
      { type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" } },
    ]);
    expect(toModelMessages([message], anthropic)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "signed", providerOptions: { anthropic: { signature: "sig" } } },
          { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "data" } } },
          { type: "text", text: "from openai" },
          { type: "text", text: "unsigned" },
          { type: "text", text: "answer" },
          { type: "tool-call", toolCallId: "call_1|fc_1", toolName: "read", input: { path: "a" } },
        ],
      },
    ]);
    expect(toModelMessages([message], openai)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "signed" },
          {
            type: "reasoning",
            text: "from openai",
            providerOptions: { openai: { itemId: "rs_1", reasoningEncryptedContent: "enc" } },
          },
          { type: "reasoning", text: "unsigned" },
          { type: "text", text: "answer", providerOptions: { openai: { itemId: "msg_1" } } },
          { type: "tool-call", toolCallId: "call_1", toolName: "read", input: { path: "a" } },
        ],
      },
    ]);
  });

  it("drops an assistant message with nothing left and merges consecutive tool results", () => {
    const messages: Message[] = [
      assistant([{ type: "text", text: " " }]),
      result([{ type: "text", text: "one" }]),
      { ...result([{ type: "text", text: "two" }]), toolCallId: "t2" },
    ];
    expect(toModelMessages(messages, anthropic)).toEqual([
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "t1", toolName: "read", output: { type: "text", value: "one" } },
          { type: "tool-result", toolCallId: "t2", toolName: "read", output: { type: "text", value: "two" } },
        ],
      },
    ]);
  });
});

describe("toolResultOutput", () => {
  it("maps text, errors and images", () => {
    expect(
      toolResultOutput(
        result([
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ]),
      ),
    ).toEqual({
      type: "text",
      value: "a\nb",
    });
    expect(toolResultOutput(result([{ type: "text", text: "ENOENT" }], true))).toEqual({
      type: "error-text",
      value: "ENOENT",
    });
    expect(toolResultOutput(result([{ type: "image", data: "AAA", mimeType: "image/png" }]))).toEqual({
      type: "content",
      value: [
        { type: "text", text: "(see attached image)" },
        { type: "image-data", data: "AAA", mediaType: "image/png" },
      ],
    });
    expect(
      toolResultOutput(
        result([
          { type: "text", text: "Read image" },
          { type: "image", data: "B", mimeType: "image/jpeg" },
        ]),
      ),
    ).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Read image" },
        { type: "image-data", data: "B", mediaType: "image/jpeg" },
      ],
    });
  });
});

describe("replayToolName (Strata fix)", () => {
  it("renames calls named like Object.prototype members, keeps others", async () => {
    const { replayToolName } = await import("@/lib/llm/to-model-messages");
    expect(["constructor", "toString", "__proto__", "hasOwnProperty", "read"].map(replayToolName)).toEqual([
      "constructor_",
      "toString_",
      "__proto___",
      "hasOwnProperty_",
      "read",
    ]);
  });
});
