/** The chat's system-message block as data: the first message's prompt text, each later patch as pi sends it. */
import { describe, expect, it } from "vitest";
import { systemMessageDisplay } from "@/components/chat/system-message-view";
import { renderSystemMessageUpdate } from "@/lib/llm/prepare-request";
import type { SystemMessage } from "@/lib/llm/types";

const tool = (name: string) => ({ name, description: `${name} tool`, parameters: { type: "object" } });

describe("systemMessageDisplay", () => {
  it("the first message: its sections as the prompt text, its tools by name", () => {
    const head: SystemMessage = {
      role: "system",
      content: "",
      sections: { preamble: "You are an expert coding assistant.", cwd: "<cwd>\n/demo\n</cwd>" },
      toolsAdded: [tool("read"), tool("bash")],
      timestamp: 1,
    };
    expect(systemMessageDisplay(head, true)).toEqual({
      summary: "System prompt",
      text: "You are an expert coding assistant.\n\n<cwd>\n/demo\n</cwd>",
      toolsAdded: ["read", "bash"],
      toolsRemoved: [],
      emptyText: "This message has no prompt text; it only declares the tools below.",
    });
  });

  it("a first message with only text, and one with nothing but declarations", () => {
    expect(systemMessageDisplay({ role: "system", content: "Be brief.", timestamp: 1 }, true).text).toBe(
      "Be brief.",
    );
    const declarations = systemMessageDisplay(
      { role: "system", content: "", toolsAdded: [tool("read")], timestamp: 1 },
      true,
    );
    expect(declarations.text).toBe("");
    expect(declarations.toolsAdded).toEqual(["read"]);
  });

  it("a later patch: what changed, and pi's rendered update (as prepare-request sends it)", () => {
    const patch: SystemMessage = {
      role: "system",
      content: "",
      sections: { project_context: "Use tabs.", skills: null },
      toolsAdded: [tool("grep")],
      toolsRemoved: [{ name: "bash" }],
      timestamp: 2,
    };
    const view = systemMessageDisplay(patch, false);
    expect(view).toEqual({
      summary: "System prompt updated: section project_context, section skills, + tool grep, − tool bash",
      text: 'Updated system prompt section "project_context":\n\nUse tabs.\n\nRemoved system prompt section "skills".',
      toolsAdded: ["grep"],
      toolsRemoved: ["bash"],
      emptyText: "No text changed.",
    });
    expect(view.text).toBe(renderSystemMessageUpdate(patch));
  });

  it("a tool both removed and added (a changed definition) is one ~ entry", () => {
    const redefined: SystemMessage = {
      role: "system",
      content: "",
      toolsAdded: [tool("read"), tool("grep")],
      toolsRemoved: [{ name: "read" }, { name: "bash" }],
      timestamp: 5,
    };
    expect(systemMessageDisplay(redefined, false)).toMatchObject({
      summary: "System prompt updated: ~ tool read, + tool grep, − tool bash",
      toolsAdded: ["read", "grep"],
      toolsRemoved: ["read", "bash"],
    });
  });

  it("a later message with text only, and a tools-only patch", () => {
    const text: SystemMessage = {
      role: "system",
      content: [{ type: "text", text: "Extra rule." }],
      timestamp: 3,
    };
    expect(systemMessageDisplay(text, false)).toMatchObject({
      summary: "System prompt updated: text",
      text: "Extra rule.",
    });
    expect(systemMessageDisplay(text, false).text).toBe(renderSystemMessageUpdate(text));
    const tools: SystemMessage = {
      role: "system",
      content: "",
      toolsRemoved: [{ name: "write" }],
      timestamp: 4,
    };
    expect(systemMessageDisplay(tools, false)).toMatchObject({
      summary: "System prompt updated: − tool write",
      text: "",
      toolsRemoved: ["write"],
    });
  });

  it("stored content that is malformed counts as empty", () => {
    const broken = {
      role: "system",
      content: null,
      sections: [],
      toolsAdded: [null, { name: 3 }],
    } as unknown as SystemMessage;
    expect(systemMessageDisplay(broken, true)).toMatchObject({ text: "", toolsAdded: [] });
  });
});
