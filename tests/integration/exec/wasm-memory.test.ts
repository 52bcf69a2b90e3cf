/**
 * The memory limit holds for the shell's WebAssembly runtimes too: CPython's (and sql.js's) memory is outside the
 * worker's V8 heap cap, so without a check of the worker's resident memory `python3` grew a worker to ~2.7 GB
 * before its own MemoryError, and the worker kept it. The pool stops a command whose worker grows by more than
 * the limit plus {@link RSS_HEADROOM_MB}, with the memory message, and replaces the worker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { createExecutor, type ExecClient } from "@/lib/exec/client";
import type { ShellExecRequest } from "@/lib/exec/types";
import { projectWithFiles } from "./fixture";

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

describe("the execution service: memory of the WebAssembly runtimes", () => {
  it("a python3 memory bomb is stopped at the memory limit, and the next command runs", async () => {
    const bomb = "python3 -c 'a=[]\nwhile True: a.append(bytearray(50*1024*1024))'";
    const result = await exec.shell({ ...target, script: bomb, limits: { memoryMb: 128 } });
    expect(result.killed).toEqual({
      reason: "memory",
      message: "Command stopped: it needed more than 128 MiB of memory (limit 128 MiB).",
    });
    const next = await exec.shell({ ...target, script: "python3 -c 'print(6*7)'" });
    expect([next.output, next.exitCode, next.killed]).toEqual(["42\n", 0, undefined]);
  });
});
