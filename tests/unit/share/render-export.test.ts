import { describe, expect, it } from "vitest";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import { exportFileName, shareExport } from "@/lib/share/render/export";
import { basicEntries, snapshotOf } from "./render-fixture";

describe("shareExport", () => {
  it("jsonl: a pi session file with pi's key order, even from a key-sorted (jsonb) snapshot", () => {
    const sorted = (o: Record<string, unknown>) =>
      Object.fromEntries(
        Object.keys(o)
          .sort()
          .map((k) => [k, o[k]]),
      );
    const snap = snapshotOf(basicEntries());
    const stored = {
      ...snap,
      header: sorted(snap.header as never) as never,
      entries: snap.entries.map((e) => sorted(e as never) as never),
    };
    const file = shareExport(stored, "jsonl");
    expect(file.fileName).toBe("Fix the parser.jsonl");
    expect(file.contentType).toBe("application/x-ndjson; charset=utf-8");
    const lines = file.body.split("\n");
    expect(lines[0]).toBe(
      '{"type":"session","version":3,"id":"hdr00001","timestamp":"2026-01-02T10:00:00.000Z","cwd":"/project"}',
    );
    expect(
      lines[1].startsWith(
        '{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-02T10:00:00.000Z","message":',
      ),
    ).toBe(true);
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe("");
    const parsed = parseSessionJsonl(file.body);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.entries).toEqual(snap.entries);
  });
  it("html: the offline document, named from the title", () => {
    const file = shareExport(snapshotOf(basicEntries()), "html", { exportedAt: "2026-05-06T07:08:00Z" });
    expect(file.fileName).toBe("Fix the parser.html");
    expect(file.contentType).toBe("text/html; charset=utf-8");
    expect(file.body).toContain("<span>Exported 2026-05-06 07:08 UTC</span>");
    expect(file.body).not.toContain("<form");
  });
});

describe("exportFileName", () => {
  it("keeps readable titles and replaces what file systems refuse", () => {
    expect(exportFileName("Fix <the> parser: a/b?", "html")).toBe("Fix _the_ parser_ a_b_.html");
    expect(exportFileName("  multi\n\tline  ", "jsonl")).toBe("multi line.jsonl");
    expect(exportFileName("..", "html")).toBe("session.html");
    expect(exportFileName("", "html")).toBe("session.html");
    expect(exportFileName("x".repeat(300), "html")).toBe(`${"x".repeat(100)}.html`);
  });
});
