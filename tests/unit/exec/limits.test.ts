/** The execution service's limits: defaults, how a request lowers them, and the exact kill texts. */
import { describe, expect, it } from "vitest";
import { defaultLimits, formatBytes, formatDuration, killReport, resolveLimits } from "@/lib/exec/limits";

describe("exec limits", () => {
  it("defaults: shell 120 s wall, sandbox 300 s; 60 s CPU, 512 MiB, 16 MiB output", () => {
    expect(defaultLimits("shell")).toEqual({
      wallMs: 120_000,
      cpuMs: 60_000,
      memoryMb: 512,
      outputBytes: 16_777_216,
    });
    expect(defaultLimits("sandbox")).toEqual({
      wallMs: 300_000,
      cpuMs: 60_000,
      memoryMb: 512,
      outputBytes: 16_777_216,
    });
    expect(defaultLimits("import")).toEqual(defaultLimits("shell"));
  });

  it("a request lowers a limit, never raises it; nonsense is ignored", () => {
    expect(
      resolveLimits("shell", { cpuMs: 500, wallMs: 1e9, memoryMb: -1, outputBytes: Number.NaN }),
    ).toEqual({
      wallMs: 120_000,
      cpuMs: 500,
      memoryMb: 512,
      outputBytes: 16_777_216,
    });
  });

  it("formats durations and sizes as the messages show them", () => {
    expect([250, 1000, 1500, 120_000].map(formatDuration)).toEqual(["250 ms", "1 s", "1.5 s", "120 s"]);
    expect([1000, 65_536, 1_572_864, 16_777_216].map(formatBytes)).toEqual([
      "1000 bytes",
      "64 KiB",
      "1.5 MiB",
      "16 MiB",
    ]);
  });

  it("kill texts", () => {
    const limits = defaultLimits("shell");
    expect((["wall", "cpu", "memory", "output"] as const).map((r) => killReport(r, limits))).toEqual([
      { reason: "wall", message: "Command stopped: it ran for more than 120 s (wall-clock limit 120 s)." },
      { reason: "cpu", message: "Command stopped: it used more than 60 s of CPU time (limit 60 s)." },
      {
        reason: "memory",
        message: "Command stopped: it needed more than 512 MiB of memory (limit 512 MiB).",
      },
      { reason: "output", message: "Command stopped: it printed more than 16 MiB of output (limit 16 MiB)." },
    ]);
  });
});
