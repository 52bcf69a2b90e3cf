import { describe, expect, it } from "vitest";
import { formatBytes } from "@/components/ui/format";

describe("formatBytes", () => {
  it("formats sizes", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1234)).toBe("1.2 KB");
    expect(formatBytes(56_000)).toBe("56 KB");
    expect(formatBytes(3_400_000)).toBe("3.4 MB");
    expect(formatBytes(-1)).toBe("?");
  });
});
