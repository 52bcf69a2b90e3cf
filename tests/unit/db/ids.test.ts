/** `isUuid`, the one check of a row id from a URL (a non-UUID is "not found", never a database error). */
import { describe, expect, it } from "vitest";
import { isUuid } from "@/lib/db/ids";

describe("isUuid", () => {
  it("accepts the canonical 8-4-4-4-12 form in either case", () => {
    expect(isUuid("0b7c5f7e-2a4e-4c1b-9f3a-5d2e8c1a7b90")).toBe(true);
    expect(isUuid("0B7C5F7E-2A4E-4C1B-9F3A-5D2E8C1A7B90")).toBe(true);
  });

  it("refuses 36 dashes, 36 hex digits, misplaced dashes, braces and surrounding text", () => {
    expect(isUuid("-".repeat(36))).toBe(false);
    expect(isUuid("a".repeat(36))).toBe(false);
    expect(isUuid("0b7c5f7e2-a4e-4c1b-9f3a-5d2e8c1a7b90")).toBe(false);
    expect(isUuid("{0b7c5f7e-2a4e-4c1b-9f3a-5d2e8c1a7b90}")).toBe(false);
    expect(isUuid(" 0b7c5f7e-2a4e-4c1b-9f3a-5d2e8c1a7b90")).toBe(false);
    expect(isUuid("0b7c5f7e-2a4e-4c1b-9f3a-5d2e8c1a7b9g")).toBe(false);
  });
});
