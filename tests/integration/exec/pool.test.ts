/**
 * The worker pool on its own, with stand-in worker scripts: a worker that cannot start is answered as a failure
 * and respawned with a backoff (never in a tight loop); a worker that dies mid-command is reported and replaced.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { defaultLimits } from "@/lib/exec/limits";
import { ExecPool } from "@/lib/exec/service/pool";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "strata-pool-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function script(name: string, text: string): URL {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return pathToFileURL(file);
}

const job = { kind: "shell", request: {}, limits: defaultLimits("shell") };

describe("ExecPool", () => {
  it("a worker that cannot start: the command fails with why, and it is retried with a backoff", async () => {
    // The backoff's timers are fake (the workers are real processes): the schedule is checked in virtual time.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const spawns = vi.spyOn(ExecPool.prototype as unknown as { spawn: () => unknown }, "spawn");
    const logs: string[] = [];
    const starts = path.join(dir, "starts");
    const pool = new ExecPool({
      size: 1,
      memoryMb: 512,
      workerUrl: script(
        "broken.mjs",
        `import fs from "node:fs";\nfs.appendFileSync(${JSON.stringify(starts)}, "x");\nthrow new Error("broken handler module");\n`,
      ),
      log: (line) => logs.push(line),
    });
    try {
      await expect(pool.ready()).rejects.toThrow("broken handler module");
      expect(spawns).toHaveBeenCalledTimes(1);
      expect(logs).toEqual(["[strata-exec] a worker failed to start (1 in a row); trying again in 1 s"]);
      const outcome = pool.run(job);
      // Not a tight loop: the next worker starts 1 s later (not before), for the waiting command…
      vi.advanceTimersByTime(999);
      expect(spawns).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1);
      expect(spawns).toHaveBeenCalledTimes(2);
      expect(await outcome).toEqual({
        type: "failed",
        status: 500,
        error: "The execution worker failed to start: Error: broken handler module",
        usage: { wallMs: 0, cpuMs: 0 },
      });
      expect(fs.readFileSync(starts, "utf8")).toBe("xx");
      // …and after it failed too, the one after that 2 s later.
      expect(logs).toEqual([
        "[strata-exec] a worker failed to start (1 in a row); trying again in 1 s",
        "[strata-exec] a worker failed to start (2 in a row); trying again in 2 s",
        "[strata-exec] a worker failed to start: Error: broken handler module",
      ]);
      vi.advanceTimersByTime(1999);
      expect(spawns).toHaveBeenCalledTimes(2);
      vi.advanceTimersByTime(1);
      expect(spawns).toHaveBeenCalledTimes(3);
    } finally {
      await pool.close();
      spawns.mockRestore();
      vi.useRealTimers();
    }
  });

  it("a worker that dies mid-command: Command stopped with the exit code, and the next command runs", async () => {
    const pool = new ExecPool({
      size: 1,
      memoryMb: 512,
      workerUrl: script(
        "dies.mjs",
        `process.on("message", (m) => {
  if (m.type !== "run") return;
  if (m.request.die) process.exit(3);
  process.send({ type: "done", id: m.id, ok: true, result: { echoed: m.request.text } });
});
process.send({ type: "ready" });
`,
      ),
      log: () => undefined,
    });
    await pool.ready();
    expect(await pool.run({ ...job, request: { die: true } })).toMatchObject({
      type: "failed",
      status: 500,
      error: "Command stopped: the execution worker exited unexpectedly (exit code 3).",
    });
    expect(await pool.run({ ...job, request: { text: "again" } })).toMatchObject({
      type: "done",
      result: { echoed: "again" },
    });
    expect(pool.load).toEqual({ busy: 0, queued: 0 });
    await pool.close();
  });

  it("a command that exhausts its worker's heap kills only that worker: a memory kill, and the pool goes on", async () => {
    const pool = new ExecPool({
      size: 1,
      memoryMb: 64,
      workerUrl: script(
        "hungry.mjs",
        `process.on("message", (m) => {
  if (m.type !== "run") return;
  if (m.request.eat) { const kept = []; for (;;) kept.push(new Array(1e6).fill(m.id)); }
  process.send({ type: "done", id: m.id, ok: true, result: { pid: process.pid } });
});
process.send({ type: "ready" });
`,
      ),
      log: () => undefined,
    });
    await pool.ready();
    const limits = { ...defaultLimits("shell"), memoryMb: 64 };
    const before = await pool.run({ ...job, limits, request: {} });
    expect(await pool.run({ ...job, limits, request: { eat: true } })).toMatchObject({
      type: "killed",
      kill: {
        reason: "memory",
        message: "Command stopped: it needed more than 64 MiB of memory (limit 64 MiB).",
      },
    });
    const after = await pool.run({ ...job, limits, request: {} });
    // A new worker process answers; this process (the service) is alive to ask.
    expect(after.type).toBe("done");
    expect((after as { result: { pid: number } }).result.pid).not.toBe(
      (before as { result: { pid: number } }).result.pid,
    );
    await pool.close();
  });
});
