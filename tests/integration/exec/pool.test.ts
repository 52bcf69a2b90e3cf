/**
 * The worker pool on its own, with stand-in worker scripts: a worker that cannot start is answered as a failure
 * and respawned with a backoff (never in a tight loop); a worker that dies mid-command is reported and replaced;
 * while other tenants' commands hold every worker, a tenant that runs nothing gets a worker of its own, within the
 * most processes, past which it waits with a notice.
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

  it("others' long commands hold the pool: a tenant that runs nothing gets a worker of its own, past the most processes it waits", async () => {
    // A command with a `gate` answers once that file exists (polled): the long commands end when the test says.
    const pool = new ExecPool({
      size: 2,
      memoryMb: 512,
      maxProcesses: 3,
      workerUrl: script(
        "gated.mjs",
        `import fs from "node:fs";
process.on("message", (m) => {
  if (m.type !== "run") return;
  const answer = () => process.send({ type: "done", id: m.id, ok: true, result: { name: m.request.name } });
  if (!m.request.gate) return answer();
  const timer = setInterval(() => {
    if (!fs.existsSync(m.request.gate)) return;
    clearInterval(timer);
    answer();
  }, 5);
});
process.send({ type: "ready" });
`,
      ),
      log: () => undefined,
    });
    await pool.ready();
    const ended: string[] = [];
    const waits: unknown[] = [];
    const gate = (name: string) => path.join(dir, `gate-${name}`);
    const run = (name: string, gated: boolean) =>
      pool
        .run(
          {
            ...job,
            request: { name, gate: gated ? gate(name) : undefined },
            tenant: { workspaceId: `w-${name}`, userId: `u-${name}` },
          },
          undefined,
          (wait) => waits.push({ name, wait }),
        )
        .then((outcome) => {
          ended.push(name);
          return outcome;
        });
    const long = [run("a", true), run("b", true)];
    expect([pool.load, pool.processes]).toEqual([{ busy: 2, queued: 0 }, 2]);
    // c's tenant runs nothing: a worker of its own (the third process, the most allowed).
    const c = run("c", false);
    expect([pool.load, pool.processes]).toEqual([{ busy: 3, queued: 0 }, 3]);
    // d's tenant runs nothing either, but no process may start: it waits, and is told what it waits behind.
    const d = run("d", false);
    expect(pool.load).toEqual({ busy: 3, queued: 1 });
    expect(waits).toEqual([{ name: "d", wait: { running: 3, yours: 0 } }]);
    expect(await c).toMatchObject({ type: "done", result: { name: "c" } });
    // c's worker ended after it; d gets one of its own in turn, and ends while a and b still run.
    expect(await d).toMatchObject({ type: "done", result: { name: "d" } });
    expect(ended).toEqual(["c", "d"]);
    fs.writeFileSync(gate("a"), "");
    await long[0];
    fs.writeFileSync(gate("b"), "");
    await long[1];
    expect(ended).toEqual(["c", "d", "a", "b"]);
    await vi.waitFor(() => expect([pool.load, pool.processes]).toEqual([{ busy: 0, queued: 0 }, 2]), {
      timeout: 20_000,
      interval: 20,
    });
    await pool.close();
  });
});
