import { describe, expect, it } from "vitest";
import { contentText, indexToolResults, toolMainArg, toolResultText } from "@/components/chat/message-utils";
import { emptyUsage } from "@/lib/llm/types";

describe("message utils", () => {
  it("picks the main tool argument", () => {
    expect(toolMainArg({ path: "src/a.ts", content: "x" })).toBe("src/a.ts");
    expect(toolMainArg({ command: "ls  -la\n/tmp" })).toBe("ls -la /tmp");
    expect(toolMainArg({ limit: 3, other: "o" })).toBe("o");
    expect(toolMainArg({ command: "x".repeat(100) }, 10)).toBe(`${"x".repeat(9)}…`);
    expect(toolMainArg(null)).toBe("");
  });

  it("extracts text from contents and results", () => {
    expect(contentText("hi")).toBe("hi");
    expect(
      contentText([
        { type: "text", text: "a" },
        { type: "image", data: "", mimeType: "image/png" },
      ]),
    ).toBe("a\n[image image/png]");
    expect(toolResultText({ content: [{ type: "text", text: "out" }], details: {} })).toBe("out");
    expect(toolResultText({ x: 1 })).toBe('{\n  "x": 1\n}');
  });

  it("indexes tool results and calls", () => {
    const { results, callIds } = indexToolResults([
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "c1", name: "ls", arguments: {} }],
        api: "x",
        provider: "p",
        model: "m",
        usage: emptyUsage(),
        stopReason: "toolUse",
        timestamp: 1,
      },
      { role: "toolResult", toolCallId: "c1", toolName: "ls", content: [], isError: false, timestamp: 2 },
    ]);
    expect([...callIds]).toEqual(["c1"]);
    expect(results.get("c1")?.toolName).toBe("ls");
  });
});
