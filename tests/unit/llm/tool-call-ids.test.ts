import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import {
  createMistralToolCallIdNormalizer,
  isValidToolCallId,
  normalizeAnthropicToolCallId,
  normalizeCompletionsToolCallId,
  normalizeGoogleToolCallId,
  normalizeResponsesToolCallId,
  shortHash,
  uniqueToolCallId,
} from "@/lib/llm/tool-call-ids";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";
import { capturePayload } from "@/tests/property/payload";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const claude = model("claude-sonnet-4-5");
const gpt = model("gpt-5");
const source = (m: Model): AssistantMessage => ({
  role: "assistant",
  content: [],
  api: m.api,
  provider: m.provider,
  model: m.id,
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 1,
});

describe("tool-call id rules (pi 14)", () => {
  it("shortHash is pi's hash", () => {
    expect(shortHash("weird+item")).toBe("5qfc0yomrzdo");
  });

  it("14.1 Anthropic, Google and Mistral rules", () => {
    expect(normalizeAnthropicToolCallId("call_1|fc/+=abc")).toBe("call_1_fc___abc");
    expect(normalizeAnthropicToolCallId("y".repeat(80))).toBe("y".repeat(64));
    expect(normalizeGoogleToolCallId("a|b", { id: "gemini-3-pro-preview" })).toBe("a_b");
    expect(normalizeGoogleToolCallId("a|b", { id: "gemini-2.5-pro" })).toBe("a|b");
    const mistral = createMistralToolCallIdNormalizer();
    expect(mistral("abc-def-ghi")).toBe("abcdefghi");
    const hashed = mistral("call_1");
    expect(hashed).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(mistral("call_1")).toBe(hashed);
    expect(mistral("abc_defghi")).not.toBe(mistral("abcdefghi"));
  });

  it("14.8 Anthropic drops blank user messages (payload)", async () => {
    const capture = await capturePayload(claude, {
      systemPrompt: "S",
      messages: [
        { role: "user", content: "  ", timestamp: 1 },
        { role: "user", content: [{ type: "text", text: " " }], timestamp: 2 },
        { role: "user", content: "real", timestamp: 3 },
      ],
      tools: [],
    });
    expect("body" in capture && capture.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "real" }] },
    ]);
  });

  it("14.11 Responses ids: foreign item ids hashed, own ids normalized and fc_-prefixed", () => {
    expect(normalizeResponsesToolCallId("toolu_01/abc|weird+item", gpt, source(claude))).toBe(
      "toolu_01_abc|fc_5qfc0yomrzdo",
    );
    expect(normalizeResponsesToolCallId("call_1|item+1_", gpt, source(model("gpt-5-mini")))).toBe(
      "call_1|fc_item_1",
    );
    expect(normalizeResponsesToolCallId("a/b", gpt, source(claude))).toBe("a_b");
    expect(normalizeResponsesToolCallId("a|b", { ...gpt, provider: "azure" }, source(claude))).toBe("a_b");
  });

  it("14.12 replayed function_call items carry no id on the wire (payload)", async () => {
    const capture = await capturePayload(gpt, {
      systemPrompt: "",
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        { ...source(claude), content: [{ type: "toolCall", id: "toolu_02", name: "read", arguments: {} }] },
        {
          role: "toolResult",
          toolCallId: "toolu_02",
          toolName: "read",
          content: [{ type: "text", text: "x" }],
          isError: false,
          timestamp: 3,
        },
      ],
      tools: [],
    });
    const input = ("body" in capture ? capture.body.input : []) as Record<string, unknown>[];
    expect(input.find((item) => item.type === "function_call")).toEqual({
      type: "function_call",
      call_id: "toolu_02",
      name: "read",
      arguments: "{}",
    });
  });

  it("14.14 Completions ids", () => {
    expect(normalizeCompletionsToolCallId("call_abc|fc_zz", { provider: "openai" })).toBe("call_abc_fc_zz");
    expect(normalizeCompletionsToolCallId(`call_abc|fc_${"z".repeat(40)}`, { provider: "x" })).toBe(
      `call_abc_${shortHash(`call_abc|fc_${"z".repeat(40)}`).slice(0, 8)}`,
    );
    expect(normalizeCompletionsToolCallId("q".repeat(50), { provider: "openai" })).toBe("q".repeat(40));
    expect(normalizeCompletionsToolCallId("q".repeat(50), { provider: "openai-compatible" })).toBe(
      "q".repeat(50),
    );
  });

  it("Strata: uniqueToolCallId gives valid unused ids", () => {
    const used = new Set(["a_b", "a_b_2"]);
    expect(uniqueToolCallId("a/b", claude, used)).toBe("a_b_3");
    expect(uniqueToolCallId("", claude, new Set())).toBe("call");
    expect(
      isValidToolCallId(uniqueToolCallId("x".repeat(64), claude, new Set(["x".repeat(64)])), claude),
    ).toBe(true);
    expect(uniqueToolCallId("c|fc_1", gpt, new Set(["c"]))).toBe("c_2");
  });
});
