/** Catalog section 16: the pi session JSONL format — schemas, parsing, migration, serialisation. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  defaultSessionFileName,
  InvalidSessionFileError,
  parseSessionJsonl,
  serializeSessionJsonl,
} from "@/lib/session/jsonl";
import { buildSessionContext } from "@/lib/session/projection";
import { validateSessionEntry } from "@/lib/session/schema";

const fixture = readFileSync(new URL("../../fixtures/sessions/pi-tour.jsonl", import.meta.url), "utf8");
const lines = fixture
  .trimEnd()
  .split("\n")
  .map((l) => JSON.parse(l));
const byType = (type: string) => lines.find((l) => l.type === type);
const ok = (v: unknown) => expect(validateSessionEntry(v)).toEqual({ success: true });

describe("16. session JSONL", () => {
  it("16.1 header: parsed, kept; a file without a valid header is refused with pi's text", () => {
    const parsed = parseSessionJsonl(fixture);
    expect(parsed.header).toEqual({
      type: "session",
      version: 3,
      id: "0198a6f0-0000-7000-8000-000000000001",
      timestamp: "2026-01-01T09:00:00.000Z",
      cwd: "/srv/project",
    });
    expect(() => parseSessionJsonl('{"type":"message","id":"x"}\n', "/tmp/a.jsonl")).toThrow(
      new InvalidSessionFileError("/tmp/a.jsonl"),
    );
    expect(() => parseSessionJsonl('{"type":"message"}\n', "/tmp/a.jsonl")).toThrow(
      "Session file is not a valid pi session: /tmp/a.jsonl",
    );
    expect(() => parseSessionJsonl("")).toThrow("Session file is not a valid pi session: <input>");
    expect(
      defaultSessionFileName({ cwd: "/srv/project", timestamp: "2026-01-01T00:00:00.000Z", id: "abc" }),
    ).toBe("--srv-project--/2026-01-01T00-00-00-000Z_abc.jsonl");
  });

  it("16.2 message entries of every role validate (system with sections/tools, bashExecution, custom)", () => {
    for (const l of lines.filter((l) => l.type === "message")) ok(l);
    ok({
      type: "message",
      id: "h",
      parentId: null,
      timestamp: "t",
      message: { role: "custom", customType: "x", content: "c", display: true, timestamp: 1 },
    });
    ok({
      type: "message",
      id: "s",
      parentId: null,
      timestamp: "t",
      message: { role: "system", content: "", toolsRemoved: [{ name: "read" }], timestamp: 1 },
    });
    expect(
      validateSessionEntry({
        type: "message",
        id: "x",
        parentId: null,
        timestamp: "t",
        message: { role: "user" },
      }).success,
    ).toBe(false);
  });

  it("16.3 thinking_level_change", () => ok(byType("thinking_level_change")));
  it("16.4 model_change", () => ok(byType("model_change")));
  it("16.5 usage", () => ok(byType("usage")));
  it("16.6 compaction (with systemMessage and details)", () => ok(byType("compaction")));
  it("16.7 branch_summary", () => ok(byType("branch_summary")));
  it("16.8 custom", () => ok(byType("custom")));
  it("16.9 custom_message", () => ok(byType("custom_message")));
  it("16.10 context_edit (null or content replacement)", () => {
    ok(byType("context_edit"));
    ok({ type: "context_edit", id: "e", parentId: "x", timestamp: "t", targetId: "x", replacement: null });
  });
  it("16.11 label (absent label = clear)", () => {
    ok(byType("label"));
    ok({ type: "label", id: "l", parentId: "x", timestamp: "t", targetId: "x" });
  });
  it("16.12 session_info", () => ok(byType("session_info")));

  it("16.13 summary messages are not entries: a message entry with role compactionSummary is reported", () => {
    const text = `${JSON.stringify(lines[0])}\n${JSON.stringify({ type: "message", id: "m", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "compactionSummary", summary: "S", tokensBefore: 1, timestamp: 1 } })}\n`;
    const parsed = parseSessionJsonl(text);
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.diagnostics.map((d) => [d.line, d.kind])).toEqual([[2, "schema"]]);
  });

  it("16.x unknown future entry types are preserved and ignored by the projection", () => {
    const parsed = parseSessionJsonl(fixture);
    const future = parsed.entries.find((e) => e.type === "future_entry_kind");
    expect(future).toEqual(byType("future_entry_kind"));
    expect(parsed.diagnostics).toEqual([]);
    const ctx = buildSessionContext(parsed.entries);
    expect(ctx.messages.map((m) => m.role)).toEqual([
      "system",
      "compactionSummary",
      "user",
      "assistant",
      "branchSummary",
      "user",
    ]);
    expect(ctx).toMatchObject({
      thinkingLevel: "medium",
      model: { provider: "anthropic", modelId: "claude-sonnet-4-5" },
    });
  });

  it("16.x serialize reproduces the file byte for byte", () => {
    const parsed = parseSessionJsonl(fixture);
    expect(serializeSessionJsonl(parsed.header, parsed.entries)).toBe(fixture);
  });

  it("16.x reading rules: blank and invalid lines skipped with line numbers; torn last line dropped, never glued", () => {
    const [h, a, b] = fixture.split("\n");
    const text = `${h}\n\n${a}\nnot json\n${b}\n{"type":"message","id":"tor`;
    const parsed = parseSessionJsonl(text);
    expect(parsed.entries.map((e) => e.id)).toEqual(["a0000001", "a0000002"]);
    expect(parsed.diagnostics.map((d) => [d.line, d.kind])).toEqual([
      [2, "blank"],
      [4, "invalid-json"],
      [6, "torn-last-line"],
    ]);
    const noNewline = parseSessionJsonl(`${h}\n${a}`);
    expect(noNewline.entries.map((e) => e.id)).toEqual(["a0000001"]);
    expect(noNewline.diagnostics.map((d) => d.kind)).toEqual(["missing-final-newline"]);
  });

  it("16.x v1 → v2 → v3 migration: linear ids, firstKeptEntryIndex → firstKeptEntryId, hookMessage → custom", () => {
    const v1 = [
      { type: "session", id: "old", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
      {
        type: "message",
        timestamp: "2025-01-01T00:00:01.000Z",
        message: { role: "user", content: "a", timestamp: 1 },
      },
      {
        type: "message",
        timestamp: "2025-01-01T00:00:02.000Z",
        message: { role: "hookMessage", customType: "h", content: "x", display: true, timestamp: 2 },
      },
      {
        type: "compaction",
        timestamp: "2025-01-01T00:00:03.000Z",
        summary: "S",
        firstKeptEntryIndex: 2,
        tokensBefore: 10,
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n");
    const parsed = parseSessionJsonl(`${v1}\n`);
    expect(parsed.fromVersion).toBe(1);
    expect(parsed.migrated).toBe(true);
    expect(Object.keys(parsed.header)).toEqual(["type", "id", "timestamp", "cwd", "version"]);
    expect(parsed.header.version).toBe(3);
    const [e1, e2, e3] = parsed.entries as Record<string, unknown>[];
    expect(e1.id).toMatch(/^[0-9a-f]{8}$/);
    expect(e1.parentId).toBeNull();
    expect(e2.parentId).toBe(e1.id);
    expect(e3.parentId).toBe(e2.id);
    expect((e2.message as { role: string }).role).toBe("custom");
    expect(e3.firstKeptEntryId).toBe(e2.id);
    expect("firstKeptEntryIndex" in e3).toBe(false);
    expect(Object.keys(e1)).toEqual(["type", "timestamp", "message", "id", "parentId"]);
    const v2 = parseSessionJsonl(
      `${JSON.stringify({ type: "session", version: 2, id: "x", timestamp: "t", cwd: "/" })}\n${JSON.stringify({ type: "message", id: "m", parentId: null, timestamp: "t", message: { role: "hookMessage", customType: "h", content: "x", display: true, timestamp: 2 } })}\n`,
    );
    expect(v2.header.version).toBe(3);
    expect((v2.entries[0] as { message: { role: string } }).message.role).toBe("custom");
  });
});
