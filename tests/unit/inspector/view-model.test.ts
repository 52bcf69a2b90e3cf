import { describe, expect, it } from "vitest";
import {
  changeLine,
  formatUsd,
  matchesFilter,
  messageSummary,
  requestToLlmIndexes,
  searchableText,
} from "@/components/inspector/view-model";

describe("changeLine", () => {
  it("names the change, where it is and why", () => {
    expect(
      changeLine({ kind: "signature_dropped", reason: "from another model", messageIndex: 1, blockIndex: 0 }),
    ).toBe("Signature dropped · request message #1, block #0 — from another model");
  });
  it("shows a count other than 1, an inserted message, and old → new ids", () => {
    expect(
      changeLine({
        kind: "image_replaced",
        reason: "this model has no image input",
        messageIndex: 0,
        count: 2,
      }),
    ).toBe("Images replaced (2) · request message #0 — this model has no image input");
    expect(
      changeLine({
        kind: "synthetic_result_inserted",
        reason: "the call was never answered",
        messageIndex: null,
      }),
    ).toBe("Synthetic result inserted · inserted — the call was never answered");
    expect(
      changeLine({
        kind: "tool_call_id_rewritten",
        reason: "invalid for this model",
        messageIndex: 3,
        blockIndex: 1,
        from: "call|x",
        to: "call_x",
      }),
    ).toBe(
      "Tool-call id rewritten · request message #3, block #1 — invalid for this model · call|x → call_x",
    );
    expect(changeLine({ kind: "new_kind", reason: "r", messageIndex: 2 })).toBe(
      "new_kind · request message #2 — r",
    );
  });
});

describe("messageSummary", () => {
  it("summarises each role on one line", () => {
    expect(
      messageSummary({
        role: "user",
        content: [
          { type: "text", text: "Look\nhere" },
          { type: "image", data: "x", mimeType: "image/png" },
          { type: "image", data: "x", mimeType: "image/png" },
        ],
      }),
    ).toEqual({ role: "user", text: "Look here [2 images]" });
    expect(
      messageSummary({
        role: "assistant",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        stopReason: "toolUse",
        content: [
          { type: "thinking", thinking: "t" },
          { type: "toolCall", id: "1", name: "read", arguments: {} },
        ],
      }),
    ).toEqual({ role: "assistant", text: "anthropic/claude-sonnet-4-5 (toolUse): [thinking] [call read]" });
    expect(
      messageSummary({
        role: "toolResult",
        toolName: "read",
        toolCallId: "t1",
        isError: true,
        content: "boom",
      }),
    ).toEqual({ role: "toolResult", text: "read t1 (error): boom" });
    expect(messageSummary({ role: "bashExecution", command: "ls  -la" })).toEqual({
      role: "bashExecution",
      text: "$ ls -la",
    });
    expect(
      messageSummary({ role: "system", sections: { preamble: "a", cwd: "b" }, toolsAdded: [{}, {}] }),
    ).toEqual({
      role: "system",
      text: "sections: preamble, cwd +2 tools",
    });
    expect(messageSummary({ role: "user", content: "x".repeat(100) }).text).toBe(`${"x".repeat(89)}…`);
  });
});

describe("filter", () => {
  it("matches case-insensitively in the JSON of a value; blank matches all", () => {
    const text = searchableText({ role: "assistant", content: [{ type: "text", text: "Login Form" }] });
    expect(matchesFilter("login form", text)).toBe(true);
    expect(matchesFilter("  ASSISTANT ", text)).toBe(true);
    expect(matchesFilter("signup", text)).toBe(false);
    expect(matchesFilter("  ", text)).toBe(true);
  });
});

it("maps request messages to LLM messages without the system messages", () => {
  expect(
    requestToLlmIndexes([{ role: "system" }, { role: "user" }, { role: "system" }, { role: "assistant" }]),
  ).toEqual([1, 3]);
});

it("formats cost for cheap and ordinary turns", () => {
  expect([formatUsd(0), formatUsd(0.0012345), formatUsd(1.254)]).toEqual(["$0", "$0.0012", "$1.25"]);
});
