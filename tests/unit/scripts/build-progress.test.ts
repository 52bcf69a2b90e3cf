/**
 * `next build` prints nothing for minutes while it compiles (17 minutes on a loaded machine, while the building
 * page said "the terminal shows the progress"): a build in progress says so every 15 s, with the time so far.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PROGRESS_EVERY_MS, reportBuildProgress } from "../../../scripts/build.mjs";

afterEach(() => {
  vi.useRealTimers();
});

describe("build progress", () => {
  it("a line every 15 s with the elapsed time, until stopped", () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const stop = reportBuildProgress((line) => lines.push(line));
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 5 - 1);
    stop();
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 4);
    const tail = " so far (next build prints nothing while it compiles; about 3 CPU-minutes in all)";
    expect(lines).toEqual(
      ["15 s", "30 s", "45 s", "1 min 00 s"].map((elapsed) => `[strata] still building… ${elapsed}${tail}`),
    );
  });
});
