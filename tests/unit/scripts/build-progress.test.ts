/**
 * `next build` prints nothing for minutes while it compiles (17 minutes on a loaded machine, while the building
 * page said "the terminal shows the progress"): a build in progress says so every 15 s, with the time so far.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { machineNow, PROGRESS_EVERY_MS, reportBuildProgress } from "../../../scripts/build.mjs";

afterEach(() => {
  vi.useRealTimers();
});

describe("build progress", () => {
  it("a line every 15 s with the elapsed time, the build's CPU time and the machine's load, until stopped", () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const samples = [
      { cpuSeconds: 14.6, load: 1.04, cores: 2 },
      { cpuSeconds: 20, load: 6.25, cores: 2 },
      { load: 0.5, cores: 4 },
      { cpuSeconds: 61, load: 2, cores: 2 },
    ];
    const stop = reportBuildProgress(
      (line) => lines.push(line),
      PROGRESS_EVERY_MS,
      () => samples[lines.length],
    );
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 5 - 1);
    stop();
    vi.advanceTimersByTime(PROGRESS_EVERY_MS * 4);
    const head = "[strata] still building…";
    const quiet = "next build prints nothing while it compiles";
    expect(lines).toEqual([
      `${head} 15 s so far (${quiet}; 15 CPU-seconds used; load 1.0 on 2 cores)`,
      `${head} 30 s so far (${quiet}; 20 CPU-seconds used; load 6.3 on 2 cores, busy: the build shares the CPU with other work)`,
      `${head} 45 s so far (${quiet}; load 0.5 on 4 cores)`,
      `${head} 1 min 00 s so far (${quiet}; 61 CPU-seconds used; load 2.0 on 2 cores)`,
    ]);
  });

  it("reads a process's CPU time from /proc (this process: more than 0 s, less than its uptime)", () => {
    const { cpuSeconds, cores } = machineNow(process.pid);
    expect(cpuSeconds).toBeGreaterThan(0);
    expect(cpuSeconds).toBeLessThan(process.uptime() * cores + 1);
    expect(machineNow(undefined).cpuSeconds).toBeUndefined();
  });
});
