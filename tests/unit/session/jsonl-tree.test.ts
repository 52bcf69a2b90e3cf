/**
 * The entry tree of a session file: duplicate ids, self-parents and parent cycles refuse the file with
 * line-numbered diagnostics (InvalidSessionTreeError, a subclass of InvalidSessionFileError so the app's import
 * answers 400 and the CLI exits 1); missing parents stay allowed (pi's walk ends there); a pi file round-trips.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  InvalidSessionFileError,
  InvalidSessionTreeError,
  parseSessionJsonl,
  serializeSessionJsonl,
} from "@/lib/session/jsonl";

const fixture = readFileSync(new URL("../../fixtures/sessions/pi-tour.jsonl", import.meta.url), "utf8");

const HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
const entry = (id: string, parentId: string | null) =>
  JSON.stringify({
    type: "thinking_level_change",
    id,
    parentId,
    timestamp: "2026-01-01T00:00:01.000Z",
    thinkingLevel: "low",
  });
const file = (...lines: string[]) => `${[HEADER, ...lines].join("\n")}\n`;

function refusal(text: string, path = "s.jsonl"): InvalidSessionTreeError {
  try {
    parseSessionJsonl(text, path);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSessionTreeError);
    expect(error).toBeInstanceOf(InvalidSessionFileError);
    return error as InvalidSessionTreeError;
  }
  throw new Error("not refused");
}

describe("session file entry tree", () => {
  it("refuses a duplicate id at the later line, naming the first", () => {
    const error = refusal(file(entry("a", null), entry("b", "a"), entry("a", "b")));
    expect(error.message).toBe(
      'Session file entries do not form a tree: s.jsonl\ns.jsonl:4: duplicate-id: Line 4: entry id "a" is already used on line 2',
    );
    expect(error.diagnostics).toEqual([
      { line: 4, kind: "duplicate-id", message: 'Line 4: entry id "a" is already used on line 2' },
    ]);
  });

  it("refuses a self-parent and a parent cycle, each once, at its first line", () => {
    const error = refusal(
      file(entry("r", null), entry("x", "z"), entry("self", "self"), entry("y", "x"), entry("z", "y")),
      "c.jsonl",
    );
    expect(error.message).toBe(
      [
        "Session file entries do not form a tree: c.jsonl",
        'c.jsonl:3: parent-cycle: Line 3: entries "x" → "z" → "y" → "x" (lines 3, 6, 5) form a parent cycle',
        'c.jsonl:4: self-parent: Line 4: entry "self" is its own parent',
      ].join("\n"),
    );
    expect(error.diagnostics.map((d) => [d.line, d.kind])).toEqual([
      [3, "parent-cycle"],
      [4, "self-parent"],
    ]);
  });

  it("keeps the other diagnostics of the parse on the error, by line", () => {
    const error = refusal(`${HEADER}\n\n${entry("a", null)}\n${entry("a", null)}`);
    expect(error.diagnostics).toEqual([
      { line: 2, kind: "blank", message: "Line 2 is blank; skipped" },
      { line: 4, kind: "missing-final-newline", message: "Line 4 has no final newline" },
      { line: 4, kind: "duplicate-id", message: 'Line 4: entry id "a" is already used on line 3' },
    ]);
  });

  it("accepts a missing parent (warned: `unknown-parent`) and branches (a tree, not a chain)", () => {
    const text = file(entry("a", null), entry("b", "a"), entry("c", "a"), entry("d", "gone"));
    const parsed = parseSessionJsonl(text);
    expect(parsed.diagnostics).toEqual([
      {
        line: 5,
        kind: "unknown-parent",
        message:
          'Line 5: parent "gone" is not an entry of this file; the entry starts a tree of its own (nothing before it is in its context)',
      },
    ]);
    expect(parsed.entries.map((e) => e.id)).toEqual(["a", "b", "c", "d"]);
  });

  it("a pi file parses without tree diagnostics and round-trips byte for byte", () => {
    const parsed = parseSessionJsonl(fixture, "pi-tour.jsonl");
    expect(parsed.diagnostics).toEqual([]);
    expect(serializeSessionJsonl(parsed.header, parsed.entries)).toBe(fixture);
  });

  it("v1 files get fresh unique ids, so migration never makes a tree problem", () => {
    const v1 = `{"type":"session","id":"s","timestamp":"t","cwd":"/"}\n${'{"type":"thinking_level_change","timestamp":"t","thinkingLevel":"low"}\n'.repeat(3)}`;
    const parsed = parseSessionJsonl(v1);
    expect(parsed.diagnostics).toEqual([]);
    expect(new Set(parsed.entries.map((e) => e.id)).size).toBe(3);
  });
});
