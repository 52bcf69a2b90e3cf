/** The tree's one-line preview of Strata's file-state entries (`custom` / `strata.checkpoint`, docs/checkpoints.md). */
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "@/lib/session/entries";
import { entryPreview } from "@/lib/session/tree-view";

const custom = (customType: string, data: unknown) =>
  ({
    type: "custom",
    customType,
    data,
    id: "e1",
    parentId: null,
    timestamp: "2026-12-03T00:00:00.000Z",
  }) as SessionEntry;

describe("entryPreview of checkpoint entries", () => {
  it("names a restore and a revert with their commit, other custom entries by type", () => {
    const commit = "0123456789abcdef0123456789abcdef01234567";
    expect(entryPreview(custom("strata.checkpoint", { kind: "restore", commit }))).toBe(
      "Files restored (commit 0123456)",
    );
    expect(
      entryPreview(custom("strata.checkpoint", { kind: "revert", commit, paths: ["a.txt", "b.txt"] })),
    ).toBe("Reverted a.txt, b.txt (commit 0123456)");
    expect(entryPreview(custom("strata.checkpoint", null))).toBe("Files restored");
    expect(entryPreview(custom("my.ext", { x: 1 }))).toBe("Custom: my.ext");
  });
});
