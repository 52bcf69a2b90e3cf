import { describe, expect, it } from "vitest";
import { computeSessionStats, formatSessionStats, formatTokens } from "@/components/chat/session-stats";
import type { AgentMessage } from "@/lib/agent/messages";
import { emptyUsage } from "@/lib/llm/types";

const answer = (
  usage: Partial<ReturnType<typeof emptyUsage>>,
  stopReason: "stop" | "aborted" = "stop",
  cost = 0,
): AgentMessage => ({
  role: "assistant",
  content: [{ type: "text", text: "x" }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "m",
  usage: { ...emptyUsage(), ...usage, cost: { ...emptyUsage().cost, total: cost } },
  stopReason,
  timestamp: 1,
});

describe("session stats", () => {
  it("sums every answer's usage and cost; context is the last answer that was not aborted", () => {
    const stats = computeSessionStats([
      { role: "user", content: "hi", timestamp: 1 },
      answer({ input: 1200, output: 340, cacheRead: 12_000, cacheWrite: 1000 }, "stop", 0.0105),
      answer({ input: 50, output: 10 }, "aborted", 0.0015),
      answer({}), // still streaming: no usage yet
    ]);
    expect(stats).toEqual({
      input: 1250,
      output: 350,
      cacheRead: 12_000,
      cacheWrite: 1000,
      cost: 0.012,
      contextTokens: 14_540,
    });
    expect(formatSessionStats(stats, 200_000)).toBe("↑1.3k ↓350 R12k W1.0k $0.012 · 7.3%/200k");
    expect(formatSessionStats({ ...stats, cacheRead: 0, cacheWrite: 0, cost: 0 })).toBe("↑1.3k ↓350");
    expect(formatSessionStats({ ...stats, contextTokens: null }, 1_000_000)).toContain(" · ?/1.0M");
  });

  it("formats tokens as pi does", () => {
    expect([999, 1000, 9999, 10_000, 999_499, 1_500_000].map(formatTokens)).toEqual([
      "999",
      "1.0k",
      "10.0k",
      "10k",
      "999k",
      "1.5M",
    ]);
  });
});
