/**
 * `timeSlicer`, the importer's time-sliced yield: within its slice a tick is one microtask (a timer set
 * before it has not run yet); once the slice is over, a tick lets pending timers run first.
 */
import { describe, expect, it } from "vitest";
import { timeSlicer, YIELD_SLICE_MS } from "@/lib/vfs/archive-limits";

async function timerRanBefore(tick: () => Promise<void>): Promise<boolean> {
  let ran = false;
  const timer = setTimeout(() => {
    ran = true;
  }, 0);
  await tick();
  clearTimeout(timer);
  return ran;
}

describe("timeSlicer", () => {
  it("slices at 10 ms by default", () => {
    expect(YIELD_SLICE_MS).toBe(10);
  });

  it("does not yield to the event loop within its slice", async () => {
    expect(await timerRanBefore(timeSlicer(60_000))).toBe(false);
  });

  it("yields a macrotask turn once its slice is over, every time", async () => {
    const tick = timeSlicer(-1);
    expect([await timerRanBefore(tick), await timerRanBefore(tick)]).toEqual([true, true]);
  });
});
