import { describe, expect, it } from "vitest";
import { followCursor } from "@/lib/runs/follow";

describe("followCursor", () => {
  it("Last-Event-ID wins over ?after=, then ?after=, else 0", () => {
    expect(followCursor("7", "3")).toBe(7);
    expect(followCursor(null, "3")).toBe(3);
    expect(followCursor(null, null)).toBe(0);
    expect(followCursor(" 12 ", null)).toBe(12);
  });

  it("a value that is not a whole number ≥ 0 counts as absent", () => {
    expect(followCursor("-1", "4")).toBe(4);
    expect(followCursor("abc", null)).toBe(0);
    expect(followCursor("1e3", null)).toBe(0);
    expect(followCursor("0x2", null)).toBe(0);
    expect(followCursor("", "2.5")).toBe(0);
  });

  it("a number past the largest seq is the largest seq (past the end: nothing replayed), never 0", () => {
    expect(followCursor("99999999999", null)).toBe(2_147_483_647);
    expect(followCursor(null, "123456789012345678901234567890")).toBe(2_147_483_647);
    expect(followCursor("2147483647", null)).toBe(2_147_483_647);
  });
});
