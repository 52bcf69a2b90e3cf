import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";
import { captureRequestBody } from "@/tests/property/request-body";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const claude = model("claude-sonnet-4-5");
const devstral = model("devstral-medium-2507");
const turn = (content: AssistantMessage["content"]): AssistantMessage => ({
  role: "assistant",
  content,
  api: claude.api,
  provider: claude.provider,
  model: claude.id,
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 2,
});

describe("Mistral request body (through the AI SDK)", () => {
  it("9-character ids, the bridge before the next user message, text-only tool content", async () => {
    const capture = await captureRequestBody(devstral, {
      systemPrompt: "S",
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        turn([
          { type: "text", text: "look" },
          { type: "toolCall", id: "toolu_01/x", name: "read", arguments: { path: "a" } },
          { type: "toolCall", id: "abc-def-ghi", name: "read", arguments: {} },
        ]),
        {
          role: "toolResult",
          toolCallId: "toolu_01/x",
          toolName: "read",
          content: [
            { type: "text", text: "r" },
            { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
          ],
          isError: false,
          timestamp: 3,
        },
        { role: "user", content: "next", timestamp: 4 },
      ],
      tools: [],
    });
    expect(capture).toEqual({
      url: "https://api.mistral.ai/v1/chat/completions",
      body: {
        model: "devstral-medium-2507",
        max_tokens: 32_768,
        stream: true,
        messages: [
          { role: "system", content: "S" },
          { role: "user", content: [{ type: "text", text: "go" }] },
          {
            role: "assistant",
            content: "look",
            tool_calls: [
              { id: "1sfeiqd1e", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
              { id: "abcdefghi", type: "function", function: { name: "read", arguments: "{}" } },
            ],
          },
          {
            role: "tool",
            name: "read",
            tool_call_id: "1sfeiqd1e",
            content: "r\n(tool image omitted: model does not support images)",
          },
          {
            role: "tool",
            name: "read",
            tool_call_id: "abcdefghi",
            content: "[tool error] No result provided",
          },
          { role: "assistant", content: "I have processed the tool results." },
          { role: "user", content: [{ type: "text", text: "next" }] },
        ],
      },
    });
  });
});
