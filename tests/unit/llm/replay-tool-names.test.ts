/** A call to a tool named like an Object.prototype member must still reach the wire with its result. */
import { describe, expect, it } from "vitest";
import { resolveModel } from "@/lib/llm/models";
import { emptyUsage } from "@/lib/llm/types";
import { capturePayload } from "../../property/payload";

describe("replaying calls to tools named like Object.prototype members", () => {
  it("keeps the tool_use (as `<name>_`) paired with its result on Anthropic", async () => {
    const model = resolveModel("anthropic/claude-sonnet-4-5", { ANTHROPIC_API_KEY: "k" })!;
    const capture = await capturePayload(model, {
      systemPrompt: "S",
      tools: [{ name: "read", description: "r", parameters: { type: "object", properties: {} } }],
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        {
          role: "assistant",
          content: [{ type: "toolCall", id: "t1", name: "constructor", arguments: {} }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          usage: emptyUsage(),
          stopReason: "toolUse",
          timestamp: 2,
        },
        {
          role: "toolResult",
          toolCallId: "t1",
          toolName: "constructor",
          content: [{ type: "text", text: "Tool constructor not found" }],
          isError: true,
          timestamp: 3,
        },
        { role: "user", content: "again", timestamp: 4 },
      ],
    });
    expect("body" in capture && capture.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "constructor_", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: "Tool constructor not found", is_error: true },
          { type: "text", text: "again" },
        ],
      },
    ]);
  });
});
