/**
 * One command through the execution service, for both of its kinds (the simulated shell, the real sandbox): the
 * route's VFS is flushed before (`ToolExec.sync`), the paths the service changed are forgotten after
 * (`ToolExec.absorb`, then checkpointed), and an abort of the caller's signal (which aborts the request, so the
 * service kills the command) is reported as an aborted run rather than thrown.
 */
import type { ExecKill, ExecOutputTail, ExecResult } from "@/lib/exec/types";
import type { ToolExec } from "./types";

/** What a command through the service produced (`ShellRun` of lib/tools/bash.ts plus `killed` and `tail`). */
export interface ServiceRun {
  /** Set when the command ran in the real sandbox (lib/tools/bash-sandbox.ts), not in the simulated shell. */
  sandboxed?: boolean;
  output: string;
  exitCode: number;
  timedOut: boolean;
  aborted: boolean;
  killed?: ExecKill;
  tail?: ExecOutputTail;
}

/**
 * Run `call` (one executor request) between `exec.sync()` and `exec.absorb(changedPaths)`.
 * @throws what `call` throws (ExecUnavailableError, ExecRequestError), unless `signal` was aborted.
 */
export async function callService(
  exec: ToolExec,
  signal: AbortSignal | undefined,
  call: () => Promise<ExecResult>,
): Promise<ServiceRun> {
  await exec.sync();
  let result: ExecResult;
  try {
    result = await call();
  } catch (error) {
    // The service was told (the request is gone); what it wrote before stopping is in the pending paths.
    if (signal?.aborted) return { output: "", exitCode: 1, timedOut: false, aborted: true };
    throw error;
  }
  await exec.absorb(result.changedPaths);
  return {
    output: result.output,
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    aborted: result.aborted || (signal?.aborted ?? false),
    ...(result.killed ? { killed: result.killed } : {}),
    ...(result.tail ? { tail: result.tail } : {}),
  };
}
