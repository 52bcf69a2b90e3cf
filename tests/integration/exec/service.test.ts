/**
 * The execution service under hostile commands: a killed worker is replaced, an abort kills the command, the
 * test process's event loop stays free while the service burns CPU, and a kill reaches the model as the bash
 * tool's error text. The service is the one tests/global-setup.ts started (2 workers) on the test database.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DbScope } from "@/lib/db/client";
import { createExecutor, type ExecClient } from "@/lib/exec/client";
import type { ExecLimits, Executor, ShellExecRequest } from "@/lib/exec/types";
import { createBashTool } from "@/lib/tools/bash";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { projectWithFiles } from "./fixture";

let scope: DbScope;
let exec: ExecClient;
let target: Omit<ShellExecRequest, "script">;

beforeAll(async () => {
  scope = new DbScope();
  exec = createExecutor(process.env)!;
  const { workspaceId, root } = await projectWithFiles(scope, {});
  target = { workspaceId, projectRoot: root, cwd: root };
});
afterAll(() => scope.release());

const run = (script: string, limits?: Partial<ExecLimits>, signal?: AbortSignal) =>
  exec.shell({ ...target, script, limits }, signal);

/** How long to wait for a condition (a hang detector, far above what it takes; not a timing claim). */
const WAIT = { timeout: 20_000, interval: 50 };

/** Wait until the service reports `busy` workers running a command and none waiting. */
const untilBusy = (busy: number) =>
  vi.waitFor(async () => expect(await exec.health()).toMatchObject({ busy, queued: 0 }), WAIT);

describe("the execution service's workers", () => {
  it("a killed worker is replaced: the next commands, on both workers at once, work", async () => {
    expect((await run("while :; do :; done", { cpuMs: 300 })).killed?.reason).toBe("cpu");
    const next = await Promise.all([run("echo one"), run("echo two"), run("echo three")]);
    expect(next.map((r) => [r.output, r.exitCode])).toEqual([
      ["one\n", 0],
      ["two\n", 0],
      ["three\n", 0],
    ]);
    expect(await exec.health()).toEqual({
      kinds: expect.arrayContaining(["shell"]),
      workers: 2,
      busy: 0,
      queued: 0,
      processes: 2,
    });
  });

  it("an abort kills the command: both workers are free again at once", async () => {
    const controller = new AbortController();
    // Default limits (60 s of CPU, 120 s of wall clock): only the abort can free this worker within the wait.
    const hog = run("while :; do :; done", undefined, controller.signal);
    const answer = hog.catch((error: unknown) => error);
    await untilBusy(1);
    controller.abort();
    expect(await answer).toMatchObject({ name: "AbortError" });
    // The hog's worker is blocked (a builtin loop never yields): the service terminates it after its 1 s grace.
    await untilBusy(0);
    const both = await Promise.all([run("echo a"), run("echo b")]);
    expect(both.map((r) => r.output)).toEqual(["a\n", "b\n"]);
  });

  it("the caller and the service answer while the service burns CPU on both workers", async () => {
    // Both burn until this test aborts them (default limits: 60 s of CPU), so all that is seen below is seen while
    // both burn.
    const stop = new AbortController();
    let settled = false;
    const burning = Promise.allSettled([
      run("while :; do :; done", undefined, stop.signal),
      run('i=0; while :; do i=$((i+1)); x="$x$i"; done', undefined, stop.signal),
    ]).finally(() => {
      settled = true;
    });
    // The service's own loop answers health while both workers burn, and this process's timers run meanwhile
    // (in process, the same loops block the caller until they end): three turns of a 5 ms interval, then health
    // again.
    await untilBusy(2);
    let ticks = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (++ticks < 3) return;
        clearInterval(timer);
        resolve();
      }, 5);
    });
    const seenWhileBurning = { load: await exec.health(), settled, ticks };
    stop.abort();
    const burns = await burning;
    expect(seenWhileBurning).toEqual({
      load: { kinds: expect.arrayContaining(["shell"]), workers: 2, busy: 2, queued: 0, processes: 2 },
      settled: false,
      ticks: 3,
    });
    expect(burns.map((b) => b.status === "rejected" && (b.reason as Error).name)).toEqual([
      "AbortError",
      "AbortError",
    ]);
    // Both workers were terminated (after the 1 s grace) and replaced.
    await untilBusy(0);
  });

  it("a big output through the service gives the bash tool exactly the in-process text and truncation", async () => {
    const { vfs } = openWorkspaceVfs(target.workspaceId, scope);
    const base = { fs: vfs, cwd: target.cwd, projectRoot: target.projectRoot };
    const inProcess = createBashTool(base);
    const viaService = createBashTool({
      ...base,
      exec: {
        executor: exec,
        workspaceId: target.workspaceId,
        sandbox: false,
        sync: () => vfs.flush().then(() => undefined),
        absorb: async (paths) => vfs.forget(paths),
      },
    });
    for (const command of [
      "seq 1 9000",
      "printf '%070000d\\n' 7",
      "seq 1 3000 | sed 's/$/ aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'",
    ]) {
      const expected = await inProcess.execute("t", { command });
      const got = await viaService.execute("t", { command });
      expect(got).toEqual(expected);
      expect(got.details?.truncation?.truncated).toBe(true);
    }
  });

  it("a kill reaches the model as the bash tool's error text", async () => {
    const { vfs } = openWorkspaceVfs(target.workspaceId, scope);
    const limited: Executor = {
      shell: (request, signal) => exec.shell({ ...request, limits: { cpuMs: 400 } }, signal),
      sandbox: (request, signal) => exec.sandbox(request, signal),
    };
    const bash = createBashTool({
      fs: vfs,
      cwd: target.cwd,
      projectRoot: target.projectRoot,
      exec: {
        executor: limited,
        workspaceId: target.workspaceId,
        sandbox: false,
        sync: () => vfs.flush().then(() => undefined),
        absorb: async (paths) => vfs.forget(paths),
      },
    });
    await expect(bash.execute("t", { command: "echo started; while :; do :; done" })).rejects.toThrow(
      new Error("Command stopped: it used more than 400 ms of CPU time (limit 400 ms)."),
    );
  });
});
