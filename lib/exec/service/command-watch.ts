/**
 * One command on one worker process, watched until it ends (moved out of pool.ts, which schedules). Per command:
 * - the wall-clock limit: the worker is killed at `wallMs`;
 * - the CPU-time limit: the worker's CPU time since the command started (`/proc/<pid>/stat`, sampled every
 *   {@link CPU_SAMPLE_MS}; wall-clock time where there is no procfs) over `cpuMs` kills it;
 * - the memory cap: each worker's V8 heap is capped (`--max-old-space-size`); a command that needs more dies of
 *   it (V8's out-of-memory abort, told by its stderr) and is reported as the memory kill. Memory outside the
 *   heap (python3's and sqlite3's WebAssembly memory) is bounded by the worker's resident memory: growing by
 *   more than the cap plus {@link RSS_HEADROOM_MB} since the command started is the memory kill too (sampled with
 *   the CPU time);
 * - pi's `timeoutMs`: when a command that blocks its thread does not answer {@link TIMEOUT_GRACE_MS} after it,
 *   the worker is terminated and the command reported as timed out.
 * The output cap is the handler's (it stops collecting and stops the command inside the worker).
 * An aborted command is told to stop (`abort`), and its worker terminated when it has not within
 * {@link ABORT_GRACE_MS}. Node-only.
 */
import { performance } from "node:perf_hooks";
import { killReport } from "@/lib/exec/limits";
import type { ExecKill, ExecLimits } from "@/lib/exec/types";
import type { FromWorker, ToWorker } from "./protocol";
import type { WorkerProcess } from "./worker-process";

const CPU_SAMPLE_MS = 20;
/**
 * Resident memory (MiB) a command's worker may grow by beyond its heap cap before the memory kill: room for what
 * legitimately lives outside the V8 heap (buffers, a runtime's own baseline), not for an unbounded WebAssembly heap.
 */
export const RSS_HEADROOM_MB = 384;
const ABORT_GRACE_MS = 1000;
const TIMEOUT_GRACE_MS = 1000;

/** One command for a worker. */
export interface CommandJob {
  kind: string;
  request: unknown;
  bytes?: Uint8Array;
  limits: ExecLimits;
  /** pi's timeout (ms): a worker still blocked this long (+ grace) after the start is terminated. */
  timeoutMs?: number;
}

/** Measured cost of a command: wall-clock ms and CPU ms (its worker's active time). */
export interface PoolUsage {
  wallMs: number;
  cpuMs: number;
}

/** How a command ended. */
export type PoolOutcome =
  | { type: "done"; result: unknown; usage: PoolUsage }
  | { type: "failed"; status: number; error: string; usage: PoolUsage }
  | { type: "killed"; kill: ExecKill; usage: PoolUsage }
  | { type: "timedOut"; usage: PoolUsage }
  | { type: "aborted"; usage: PoolUsage };

/** A `failed` outcome (no usage: it did not run). */
export const failed = (
  status: number,
  error: string,
  usage: PoolUsage = { wallMs: 0, cpuMs: 0 },
): PoolOutcome => ({
  type: "failed",
  status,
  error,
  usage,
});

/**
 * The cost meter of a command starting now on `worker`: `cpuUsed` (its worker's CPU ms since the start; wall-clock
 * ms where there is no procfs; the last reading when a sample fails), `usage` (both, rounded) and `rssGrowthMb`
 * (resident memory grown since the start, 0 when unknown).
 */
function startMeter(worker: WorkerProcess): {
  cpuUsed: () => number;
  usage: () => PoolUsage;
  rssGrowthMb: () => number;
} {
  const started = performance.now();
  const cpuAtStart = worker.cpuMs();
  const rssAtStart = worker.rssMb();
  let lastCpuMs = 0;
  const cpuUsed = () => {
    const now = worker.cpuMs();
    const wall = performance.now() - started;
    if (now !== undefined && cpuAtStart !== undefined) lastCpuMs = now - cpuAtStart;
    else if (cpuAtStart === undefined) lastCpuMs = wall;
    return lastCpuMs;
  };
  const usage = (): PoolUsage => ({
    wallMs: Math.round(performance.now() - started),
    cpuMs: Math.round(cpuUsed()),
  });
  const rssGrowthMb = () => {
    const now = worker.rssMb();
    return now === undefined || rssAtStart === undefined ? 0 : now - rssAtStart;
  };
  return { cpuUsed, usage, rssGrowthMb };
}

/** The worker's `run` message for command `id`. */
function runMessage(id: number, job: CommandJob): ToWorker {
  return {
    type: "run",
    id,
    kind: job.kind,
    request: job.request,
    bytes: job.bytes,
    limits: job.limits,
  };
}

/**
 * Run `job` as command `id` on `worker` (started) and watch it. Resolves, never rejects, with the outcome and
 * whether the worker must be terminated (it was killed at a limit, died, timed out or ignored an abort); the
 * processes the handler registered are already killed then. `log` gets a line when the worker dies mid-command.
 */
export function watchCommand(
  worker: WorkerProcess,
  id: number,
  job: CommandJob,
  signal: AbortSignal | undefined,
  log: (line: string) => void,
): Promise<{ outcome: PoolOutcome; terminate: boolean }> {
  return new Promise((resolve) => {
    const { cpuUsed, usage, rssGrowthMb } = startMeter(worker);
    const pids = new Set<number>();
    const timers: ReturnType<typeof setTimeout>[] = [];
    let settled = false;
    const finish = (outcome: PoolOutcome, terminate: boolean) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      clearInterval(cpuTimer);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      signal?.removeEventListener("abort", onAbort);
      if (terminate) for (const pid of pids) killGroup(pid);
      resolve({ outcome, terminate });
    };
    const kill = (reason: ExecKill["reason"]) =>
      finish({ type: "killed", kill: killReport(reason, job.limits), usage: usage() }, true);
    const onMessage = (message: FromWorker) => {
      if (message.type === "pid" && message.id === id) pids.add(message.pid);
      if (message.type !== "done" || message.id !== id) return;
      const u = usage();
      finish(
        message.ok
          ? { type: "done", result: message.result, usage: u }
          : { type: "failed", status: message.status, error: message.error, usage: u },
        false,
      );
    };
    const onExit = (code: number | null, exitSignal: NodeJS.Signals | null) => {
      if (worker.diedOfMemory()) return kill("memory");
      const how = exitSignal ? `signal ${exitSignal}` : `exit code ${code}`;
      log(`[strata-exec] a worker died running a ${job.kind} command (${how})`);
      finish(
        failed(500, `Command stopped: the execution worker exited unexpectedly (${how}).`, usage()),
        true,
      );
    };
    const onAbort = () => {
      worker.send({ type: "abort", id } satisfies ToWorker);
      timers.push(setTimeout(() => finish({ type: "aborted", usage: usage() }, true), ABORT_GRACE_MS));
    };
    worker.on("message", onMessage);
    worker.on("exit", onExit);
    timers.push(setTimeout(() => kill("wall"), job.limits.wallMs));
    if (job.timeoutMs !== undefined && job.timeoutMs + TIMEOUT_GRACE_MS < job.limits.wallMs) {
      timers.push(
        setTimeout(
          () => finish({ type: "timedOut", usage: usage() }, true),
          job.timeoutMs + TIMEOUT_GRACE_MS,
        ),
      );
    }
    const cpuTimer = setInterval(() => {
      if (cpuUsed() > job.limits.cpuMs) kill("cpu");
      else if (rssGrowthMb() > job.limits.memoryMb + RSS_HEADROOM_MB) kill("memory");
    }, CPU_SAMPLE_MS);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    if (!worker.send(runMessage(id, job))) onExit(null, null);
  });
}

/** SIGKILL the process group of `pid` (a handler's detached child), else the process; gone already is fine. */
function killGroup(pid: number): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, "SIGKILL");
      return;
    } catch {
      // not a group leader, or already gone
    }
  }
}
