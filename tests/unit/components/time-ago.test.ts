/** The Context panel's relative times (components/chat/time-ago.ts). */
import { describe, expect, it } from "vitest";
import { timeAgo } from "@/components/chat/time-ago";

const NOW = Date.parse("2026-12-01T15:00:00.000Z");
const at = (ms: number) => new Date(NOW - ms).toISOString();

describe("timeAgo", () => {
  it("just now, minutes, hours, days, then the date", () => {
    expect(timeAgo(at(10_000), NOW)).toBe("just now");
    expect(timeAgo(at(-5_000), NOW)).toBe("just now");
    expect(timeAgo(at(2 * 60_000), NOW)).toBe("2 min ago");
    expect(timeAgo(at(59 * 60_000), NOW)).toBe("59 min ago");
    expect(timeAgo(at(3 * 3_600_000), NOW)).toBe("3 h ago");
    expect(timeAgo(at(5 * 86_400_000), NOW)).toBe("5 d ago");
    expect(timeAgo("2026-01-02T03:04:05.000Z", NOW)).toBe("2026-01-02");
    expect(timeAgo("not a time", NOW)).toBe("not a time");
  });
});
