/**
 * The execution service (started by tests/global-setup.ts on the test database) through its client: a command's
 * result, and every hard limit stopping a runaway command with its exact message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { createExecutor, type ExecClient } from "@/lib/exec/client";
import type { ExecLimits, ShellExecRequest } from "@/lib/exec/types";
import { projectWithFiles, readStored } from "./fixture";

let scope: DbScope;
let exec: ExecClient;
let target: Omit<ShellExecRequest, "script">;

beforeAll(async () => {
  scope = new DbScope();
  const made = createExecutor(process.env);
  if (!made)
    throw new Error("STRATA_EXEC_URL is not set: tests/global-setup.ts starts the execution service");
  exec = made;
  const { workspaceId, root } = await projectWithFiles(scope, { "a.txt": "a\n" });
  target = { workspaceId, projectRoot: root, cwd: root };
});
afterAll(() => scope.release());

const run = (script: string, limits?: Partial<ExecLimits>, signal?: AbortSignal) =>
  exec.shell({ ...target, script, limits }, signal);

describe("the execution service", () => {
  it("echo hi answers hi, exit 0, nothing changed", async () => {
    const result = await run("echo hi");
    expect(result).toMatchObject({
      output: "hi\n",
      outputBytes: 3,
      exitCode: 0,
      timedOut: false,
      aborted: false,
      changedPaths: [],
    });
    expect(result.killed).toBeUndefined();
  });

  it("a file the shell writes is flushed to Postgres and reported", async () => {
    const result = await run("mkdir -p d && echo made > d/f.txt && rm a.txt");
    expect(result.changedPaths).toEqual([
      `${target.projectRoot}/a.txt`,
      `${target.projectRoot}/d`,
      `${target.projectRoot}/d/f.txt`,
    ]);
    expect(await readStored(target.workspaceId, `${target.projectRoot}/d/f.txt`)).toBe("made\n");
    expect(await readStored(target.workspaceId, `${target.projectRoot}/a.txt`)).toBeNull();
  });

  it("with outputTail, only pi's tail comes back, with the whole output's counts", async () => {
    const result = await exec.shell({
      ...target,
      script: "seq 1 5000",
      outputTail: { maxLines: 2000, maxBytes: 51_200 },
    });
    expect(result.output).toBe(Array.from({ length: 2000 }, (_, i) => String(3001 + i)).join("\n"));
    expect(result.outputBytes).toBe(23_893);
    expect(result.tail).toEqual({
      truncated: true,
      truncatedBy: "lines",
      totalLines: 5000,
      totalBytes: 23_893,
      outputLines: 2000,
      outputBytes: 9999,
      lastLinePartial: false,
      firstLineExceedsLimit: false,
      maxLines: 2000,
      maxBytes: 51_200,
    });
  });

  it("an infinite builtin loop is stopped at the CPU limit", async () => {
    const result = await run("while :; do :; done", { cpuMs: 500 });
    expect(result.killed).toEqual({
      reason: "cpu",
      message: "Command stopped: it used more than 500 ms of CPU time (limit 500 ms).",
    });
    expect(result.exitCode).toBe(137);
    expect(result.usage.cpuMs).toBeGreaterThanOrEqual(500);
  });

  it("a loop is stopped at the wall-clock limit", async () => {
    const result = await run("while :; do :; done", { wallMs: 800 });
    expect(result.killed).toEqual({
      reason: "wall",
      message: "Command stopped: it ran for more than 800 ms (wall-clock limit 800 ms).",
    });
  });

  it("pi's timeout is a timeout, not a kill: a sleeping and a never-yielding command both time out", async () => {
    // Neither ends by itself, and the wall-clock limit (10 s) would stop them as a kill (`killed.reason` "wall",
    // not timed out): only the 700 ms timeout gives this answer.
    for (const script of ["sleep 600; echo late", "while :; do :; done"]) {
      const result = await exec.shell({ ...target, script, timeoutMs: 700, limits: { wallMs: 10_000 } });
      expect(result).toMatchObject({ output: "", timedOut: true, aborted: false, changedPaths: [] });
      expect(result.killed).toBeUndefined();
    }
  });

  it("a doubling string is stopped at the memory cap", async () => {
    const result = await run('x=0123456789abcdef; while :; do x="$x$x"; y="${x}z"; done', { memoryMb: 64 });
    expect(result.killed).toEqual({
      reason: "memory",
      message: "Command stopped: it needed more than 64 MiB of memory (limit 64 MiB).",
    });
  });

  /** The output cap's report: the simulated shell counts output wherever it goes (a 32 MB file write said "printed"). */
  const OUTPUT_MESSAGE =
    "Command stopped: it produced more than 256 KiB of output, printed or written through a redirect or a pipe (the limit of one command's output is 256 KiB; a file holds at most 10 MiB).";

  it("a command printing more than the output cap is stopped with the output message", async () => {
    const limits = { outputBytes: 256 * 1024 };
    const message = OUTPUT_MESSAGE;
    const big = await run("printf '%02000000d' 0", limits);
    expect(big.killed).toEqual({ reason: "output", message });
    const line = "y".repeat(200);
    const loop = await run(`while :; do echo ${line}; done`, limits);
    expect(loop.killed).toEqual({ reason: "output", message });
    expect(loop.output).toBe("");
    // Under the cap: all of it.
    const under = await run(`for i in 1 2 3; do echo ${line}; done`, limits);
    expect([under.output, under.killed]).toEqual([`${line}\n${line}\n${line}\n`, undefined]);
  });

  it("output over the cap into a file or a pipe gets the same message, which names the file limit", async () => {
    const limits = { outputBytes: 256 * 1024 };
    const message = OUTPUT_MESSAGE;
    const file = await run("printf '%02000000d' 0 > big.txt; echo done", limits);
    expect([file.output, file.killed]).toEqual(["", { reason: "output", message }]);
    const pipe = await run("printf '%02000000d' 0 | wc -c", limits);
    expect(pipe.killed).toEqual({ reason: "output", message });
  });
});
