/** Overflow detection and the auto-compaction threshold (pi `isContextOverflow`, 8.2). */
import { describe, expect, it } from "vitest";
import {
  isContextOverflow,
  isContextOverflowError,
  shouldAutoCompact,
} from "@/lib/agent-session/compaction-run";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";

describe("isContextOverflowError", () => {
  it.each([
    "400 prompt is too long: 213462 tokens > 200000 maximum",
    "400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
    "400 context_length_exceeded",
    "Your input exceeds the context window of this model. Please adjust your input and try again.",
    "400 The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
    "This model's maximum prompt length is 131072 but the request contains 537812 tokens",
    "413 (no body)",
  ])("recognises %s", (message) => expect(isContextOverflowError(message)).toBe(true));

  it.each(["529 Overloaded", "429 rate limit exceeded", "Request was aborted", "", undefined])(
    "ignores %s",
    (message) => expect(isContextOverflowError(message)).toBe(false),
  );

  it("isContextOverflow: error replies by message, silent overflow by usage", () => {
    const base: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "m",
      usage: emptyUsage(),
      stopReason: "error",
      errorMessage: "400 prompt is too long: 5 tokens > 4 maximum",
      timestamp: 0,
    };
    expect(isContextOverflow(base)).toBe(true);
    const silent = { ...base, stopReason: "stop" as const, errorMessage: undefined };
    silent.usage = { ...emptyUsage(), input: 90, cacheRead: 20 };
    expect(isContextOverflow(silent, 100)).toBe(true);
    expect(isContextOverflow(silent, 200)).toBe(false);
    expect(isContextOverflow(silent)).toBe(false);
  });
});

describe("shouldAutoCompact (8.2)", () => {
  it("compacts above contextWindow - reserveTokens", () => {
    const model = { contextWindow: 200_000 };
    expect(shouldAutoCompact(200_000 - 16_384, model)).toBe(false);
    expect(shouldAutoCompact(200_000 - 16_383, model)).toBe(true);
    expect(
      shouldAutoCompact(199_999, model, { enabled: false, reserveTokens: 16_384, keepRecentTokens: 20_000 }),
    ).toBe(false);
  });
});
