/**
 * lib/session/entry-repair.ts and the streaming parse of session files: what is refused, what is repaired (with
 * which note), that valid messages are the same object (pi 15.4), and that a file split into byte ranges at any
 * boundary parses exactly like the whole text.
 */
import { describe, expect, it } from "vitest";
import { checkEntry, repairContent, repairMessage } from "@/lib/session/entry-repair";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import { parseSessionParts, refuseCutFile } from "@/lib/session/session-upload";
import { largeSessionFile, sessionFile } from "../../helpers/session-files";

describe("checkEntry", () => {
  const base = { type: "label", id: "a", parentId: null, timestamp: "t", targetId: "x" };
  it("refuses unusable ids, parents, types and messages", () => {
    expect(checkEntry({ ...base, id: "" }).problem).toBe(
      '"id" must be a non-empty string (got an empty string); every entry needs a unique id',
    );
    expect(checkEntry({ ...base, parentId: 3 }).problem).toBe(
      '"parentId" must be a string or null (got a number)',
    );
    expect(checkEntry({ ...base, type: ["message"] }).problem).toBe('"type" must be a string (got an array)');
    expect(checkEntry({ ...base, type: "message", message: "hi" }).problem).toBe(
      'a message entry needs a message: "message" must be an object (got a string)',
    );
  });

  it("keeps valid entries as the same object, unknown types and roles included", () => {
    const message = { ...base, type: "message", message: { role: "user", content: "hi", timestamp: 1 } };
    expect(checkEntry(message)).toEqual({ entry: message, notes: [] });
    expect(checkEntry(message).entry).toBe(message);
    const future = { ...base, type: "future_kind", anything: [null] };
    expect(checkEntry(future).entry).toBe(future);
    const role = { ...base, type: "message", message: { role: "someday", content: [null] } };
    expect(checkEntry(role).notes).toEqual(["message.content[0] is null; dropped"]);
  });

  it("repairs custom_message content, a compaction's system message and a context edit's replacement", () => {
    expect(
      checkEntry({ ...base, type: "custom_message", content: [null, { type: "text", text: "x" }] }),
    ).toEqual({
      entry: { ...base, type: "custom_message", content: [{ type: "text", text: "x" }] },
      notes: ["content[0] is null; dropped"],
    });
    const compaction = { ...base, type: "compaction", summary: "s", systemMessage: null };
    expect(checkEntry(compaction).notes).toEqual(['"systemMessage" must be an object (got null); dropped']);
    expect(checkEntry(compaction).entry.systemMessage).toBeUndefined();
    const edit = { ...base, type: "context_edit", replacement: { content: [{ type: "image", data: 1 }] } };
    expect(checkEntry(edit)).toEqual({
      entry: { ...edit, replacement: { content: [] } },
      notes: ['replacement.content[0] (image) needs string "data" and "mimeType"; dropped'],
    });
  });
});

describe("repairMessage / repairContent", () => {
  it("pi's null content stays for the projection (15.2); other non-arrays become pi's empty content", () => {
    expect(repairContent(null, "c", [])).toEqual({ content: null, notes: [] });
    expect(repairContent({}, "c", "")).toEqual({ content: "", notes: ['c is an object; replaced with ""'] });
    const user = { role: "user", content: "hello", timestamp: 1 };
    expect(repairMessage(user).message).toBe(user);
  });

  it("an assistant string content becomes a text part; a usage that is not an object becomes zero usage", () => {
    const fixed = repairMessage({
      role: "assistant",
      content: "said",
      usage: "lots",
      stopReason: "stop",
      timestamp: 1,
    });
    expect(fixed.notes).toEqual([
      "message.content is a string; wrapped in a text part",
      "message.usage is not pi's usage object; replaced with zero usage",
    ]);
    expect(fixed.message).toMatchObject({
      content: [{ type: "text", text: "said" }],
      usage: { input: 0, output: 0, totalTokens: 0, cost: { total: 0 } },
    });
  });
});

describe("parseSessionParts", () => {
  it("byte ranges at every boundary (inside characters and lines) parse exactly like the whole text", async () => {
    const file = largeSessionFile(200_000);
    const bytes = new TextEncoder().encode(file.text);
    const whole = parseSessionJsonl(file.text, "f");
    for (const size of [1, 7, 4093, 65536]) {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
      const parsed = await parseSessionParts(chunks, "f");
      expect(parsed.entries).toEqual(whole.entries);
      expect(parsed.diagnostics).toEqual([]);
    }
    expect(whole.entries).toHaveLength(file.entries);
  });

  it("line numbers count across parts; a torn last line is refused only when asked", async () => {
    const text = `${sessionFile({ type: "label", id: "a", parentId: null, timestamp: "t", targetId: "a" })}not json\n{"type":`;
    const parsed = await parseSessionParts([text.slice(0, 50), text.slice(50)], "p.jsonl");
    expect(parsed.diagnostics.map((d) => [d.line, d.kind])).toEqual([
      [3, "invalid-json"],
      [4, "torn-last-line"],
    ]);
    expect(() => refuseCutFile(parsed, "p.jsonl")).toThrow(
      "Session file ends in an incomplete line (it was cut); nothing was imported: p.jsonl\np.jsonl:4: torn-last-line: Line 4 (last, no newline) is incomplete JSON",
    );
  });
});
