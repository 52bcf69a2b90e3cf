/**
 * Defaults where a pi file misses what every reader builds text from (lib/session/entry-repair.ts): a bash
 * execution's `command` / `output`, a custom message's content, a compaction's `summary`. Without them the
 * token estimate throws (`Cannot read properties of undefined (reading 'length')`) and the context says
 * "undefined".
 */
import { describe, expect, it } from "vitest";
import { convertToLlm } from "@/lib/context/convert-to-llm";
import { estimateTokens } from "@/lib/session/compaction/compaction";
import { checkEntry, normalizeMessage } from "@/lib/session/entry-repair";
import { parseSessionJsonl } from "@/lib/session/jsonl";

describe("normalizeMessage defaults", () => {
  it('a bash execution without output (or with a non-string command) reads as ""; the context says (no output)', () => {
    const m = normalizeMessage({ role: "bashExecution", command: "ls", timestamp: 2 });
    expect(m).toEqual({ role: "bashExecution", command: "ls", output: "", timestamp: 2 });
    expect(estimateTokens(m as NonNullable<typeof m>)).toBe(1);
    expect(convertToLlm([m as NonNullable<typeof m>])).toEqual([
      { role: "user", content: [{ type: "text", text: "Ran `ls`\n(no output)" }], timestamp: 2 },
    ]);
    expect(normalizeMessage({ role: "bashExecution", command: 5, output: "x", timestamp: 2 })).toEqual({
      role: "bashExecution",
      command: "",
      output: "x",
      timestamp: 2,
    });
    const whole = { role: "bashExecution", command: "ls", output: "a", timestamp: 2 };
    expect(normalizeMessage(whole)).toBe(whole);
  });

  it("a custom message with null or missing content reads as []", () => {
    expect(
      normalizeMessage({ role: "custom", customType: "n", display: true, content: null, timestamp: 3 }),
    ).toEqual({
      role: "custom",
      customType: "n",
      display: true,
      content: [],
      timestamp: 3,
    });
    expect(normalizeMessage({ role: "custom", customType: "n", display: true })).toMatchObject({
      content: [],
    });
  });
});

describe("checkEntry: a compaction without a string summary", () => {
  it('gets "" with a note; its system message is still checked', () => {
    const entry = { type: "compaction", id: "k", parentId: null, timestamp: "t", firstKeptEntryId: "k" };
    expect(checkEntry(entry)).toEqual({
      entry: { ...entry, summary: "" },
      notes: ['"summary" is nothing; replaced with ""'],
    });
    const withSystem = { ...entry, summary: 3, systemMessage: { role: "system", content: [null] } };
    expect(checkEntry(withSystem)).toEqual({
      entry: { ...entry, summary: "", systemMessage: { role: "system", content: [] } },
      notes: ['"summary" is a number; replaced with ""', "systemMessage.content[0] is null; dropped"],
    });
  });

  it("parseSessionJsonl reports it as repaired, with the line", () => {
    const text = `${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" })}\n${JSON.stringify({ type: "compaction", id: "k", parentId: null, timestamp: "t", firstKeptEntryId: "k", tokensBefore: 1 })}\n`;
    const parsed = parseSessionJsonl(text);
    expect(parsed.diagnostics).toEqual([
      { line: 2, kind: "repaired", message: 'Line 2: "summary" is nothing; replaced with ""' },
    ]);
    expect(parsed.entries[0]).toMatchObject({ summary: "" });
  });
});
