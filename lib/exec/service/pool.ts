/**
 * The execution service's worker pool: `size` worker processes (worker.ts, forked by worker-process.ts), each
 * running one command at a time; more commands wait in a FIFO queue. A worker is a process, not a thread, so a
 * command that kills its worker (V8 aborting on a huge allocation) never takes the service down. Per command,
 * the service enforces
 * - the wall-clock limit: the worker is killed at `wallMs`;
 * - the CPU-time limit: the worker's CPU time since the command started (`/proc/<pid>/stat`, sampled every
 *   {@link CPU_SAMPLE_MS}; wall-clock time where there is no procfs) over `cpuMs` kills it;
 * - the memory cap: each worker's V8 heap is capped (`--max-old-space-size`); a command that needs more dies of
 *   it (V8's out-of-memory abort, told by its stderr) and is reported as the memory kill. Memory outside the
 *   heap (python3's and sqlite3's WebAssembly memory) is bounded by the worker's resident memory: growing by
 *   more than the cap plus {@link RSS_HEADROOM_MB} since the command started is the memory kill too (sampled with
 *   the CPU time). A command asking another cap than the pool's runs in a worker of its own, made for it and
 *   ended after it;
 * - pi's `timeoutMs`: when a command that blocks its thread does not answer {@link TIMEOUT_GRACE_MS} after it,
 *   the worker is terminated and the command reported as timed out.
 * The output cap is the handler's (it stops collecting and stops the command inside the worker).
 * A terminated or crashed worker is replaced at once; the processes a handler registered are killed with it.
 * An aborted command is told to stop (`abort`), and its worker terminated when it has not within
 * {@link ABORT_GRACE_MS}. Node-only.
 */
import { performance } from "node:perf_hooks";
import { killReport } from "@/lib/exec/limits";
import type { ExecKill, ExecLimits } from "@/lib/exec/types";
import type { FromWorker, ToWorker } from "./protocol";
import { WorkerProcess } from "./worker-process";

const CPU_SAMPLE_MS = 20;
/**
 * Resident memory (MiB) a command's worker may grow by beyond its heap cap before the memory kill: room for what
 * legitimately lives outside the V8 heap (buffers, a runtime's own baseline), not for an unbounded WebAssembly heap.
 */
export const RSS_HEADROOM_MB = 384;
const ABORT_GRACE_MS = 1000;
const TIMEOUT_GRACE_MS = 1000;
/** How long a worker may take to load its handlers before it counts as failed (ms). */
const START_TIMEOUT_MS = 60_000;

/** One command for the pool. */
export interface PoolJob {
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

interface Slot {
  worker: WorkerProcess;
  memoryMb: number;
  ready: Promise<void>;
  busy: boolean;
  dedicated: boolean;
  gone: boolean;
  /** It loaded its handlers (sent `ready`). */
  started: boolean;
}

interface Waiting {
  job: PoolJob;
  signal?: AbortSignal;
  resolve: (outcome: PoolOutcome) => void;
}

export interface PoolOptions {
  /** Number of pooled workers (default: max(2, CPU cores)). */
  size: number;
  /** Heap cap of a pooled worker (MiB). */
  memoryMb: number;
  /** The worker script (default: ./worker.ts next to this file). */
  workerUrl?: URL;
  log?: (line: string) => void;
}

/** The pool; see the module comment. */
export class ExecPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Waiting[] = [];
  private nextId = 1;
  private dedicatedBusy = 0;
  private startFailures = 0;
  private closed = false;
  private readonly workerUrl: URL;
  private readonly log: (line: string) => void;

  constructor(private readonly options: PoolOptions) {
    this.workerUrl = options.workerUrl ?? new URL("./worker.ts", import.meta.url);
    this.log = options.log ?? ((line) => console.error(line));
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn(options.memoryMb, false));
  }

  /** Number of pooled workers. */
  get size(): number {
    return this.options.size;
  }

  /** Workers running a command now (pooled and dedicated), and commands waiting for one. */
  get load(): { busy: number; queued: number } {
    return {
      busy: this.slots.filter((s) => s.busy && !s.gone).length + this.dedicatedBusy,
      queued: this.queue.length,
    };
  }

  /** Resolves when every pooled worker has loaded its handlers. @throws the first worker's start failure. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** Run `job` when a worker is free; never rejects (see `PoolOutcome`). */
  run(job: PoolJob, signal?: AbortSignal): Promise<PoolOutcome> {
    if (this.closed) return Promise.resolve(failed(503, "The execution service is stopping."));
    if (signal?.aborted) return Promise.resolve({ type: "aborted", usage: { wallMs: 0, cpuMs: 0 } });
    return new Promise((resolve) => {
      const waiting: Waiting = { job, signal, resolve };
      if (job.limits.memoryMb !== this.options.memoryMb) {
        this.dedicatedBusy++;
        const done = waiting.resolve;
        waiting.resolve = (outcome) => {
          this.dedicatedBusy--;
          done(outcome);
        };
        void this.execute(this.spawn(job.limits.memoryMb, true), waiting);
        return;
      }
      this.queue.push(waiting);
      signal?.addEventListener(
        "abort",
        () => {
          const i = this.queue.indexOf(waiting);
          if (i < 0) return;
          this.queue.splice(i, 1);
          resolve({ type: "aborted", usage: { wallMs: 0, cpuMs: 0 } });
        },
        { once: true },
      );
      this.dispatch();
    });
  }

  /** Terminate every worker; queued commands answer 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.queue.splice(0)) w.resolve(failed(503, "The execution service is stopping."));
    await Promise.all(this.slots.map((s) => this.retire(s)));
  }

  private spawn(memoryMb: number, dedicated: boolean): Slot {
    const worker = new WorkerProcess(this.workerUrl, memoryMb);
    const slot: Slot = {
      worker,
      memoryMb,
      ready: Promise.resolve(),
      busy: false,
      dedicated,
      gone: false,
      started: false,
    };
    // A worker that dies between commands is replaced (a running command's own listeners report it).
    worker.on("exit", (code) => {
      if (slot.gone) return;
      if (!slot.busy && slot.started)
        this.log(`[strata-exec] an idle worker exited (code ${code}); replacing it`);
      void this.retire(slot);
    });
    slot.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the execution worker did not start within ${START_TIMEOUT_MS / 1000} s`)),
        START_TIMEOUT_MS,
      );
      const onMessage = (message: FromWorker) => {
        if (message.type !== "ready") return;
        clearTimeout(timer);
        worker.off("message", onMessage);
        slot.started = true;
        resolve();
      };
      worker.on("message", onMessage);
      const onExit = (code: number | null) => {
        worker.off("exit", onExit);
        if (slot.started) return;
        clearTimeout(timer);
        reject(new Error(startFailure(worker, code)));
      };
      worker.on("exit", onExit);
    });
    slot.ready.catch(() => undefined);
    return slot;
  }

  /** Drop `slot` (killing its process) and, for a pooled one, start its replacement. */
  private async retire(slot: Slot): Promise<void> {
    if (slot.gone) return;
    slot.gone = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) {
      this.slots.splice(i, 1);
      if (!this.closed && !slot.dedicated) this.replace(slot.started);
    }
    await slot.worker.terminate().catch(() => undefined);
    if (!this.closed) this.dispatch();
  }

  /**
   * Start a pooled worker in place of one that is gone: at once after a worker that had started, else (it failed
   * to start: a broken handler module, no memory) after a backoff of 1, 2, 4 … 30 s, logged, so a worker that
   * cannot start is not respawned in a tight loop.
   */
  private replace(previousStarted: boolean): void {
    if (previousStarted) this.startFailures = 0;
    else this.startFailures++;
    const delay = previousStarted ? 0 : Math.min(30_000, 1000 * 2 ** (this.startFailures - 1));
    if (delay === 0) {
      this.slots.push(this.spawn(this.options.memoryMb, false));
      return;
    }
    this.log(
      `[strata-exec] a worker failed to start (${this.startFailures} in a row); trying again in ${delay / 1000} s`,
    );
    const timer = setTimeout(() => {
      if (this.closed) return;
      this.slots.push(this.spawn(this.options.memoryMb, false));
      this.dispatch();
    }, delay);
    timer.unref();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.busy || slot.gone) continue;
      const waiting = this.queue.shift()!;
      void this.execute(slot, waiting);
    }
  }

  private async execute(slot: Slot, waiting: Waiting): Promise<void> {
    slot.busy = true;
    const { job, signal } = waiting;
    try {
      await slot.ready;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.log(`[strata-exec] a worker failed to start: ${why}`);
      await this.retire(slot);
      waiting.resolve(failed(500, `The execution worker failed to start: ${why}`));
      return;
    }
    const id = this.nextId++;
    const worker = slot.worker;
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
      if (terminate || slot.dedicated) void this.retire(slot);
      else {
        slot.busy = false;
        this.dispatch();
      }
      waiting.resolve(outcome);
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
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (worker.diedOfMemory()) return kill("memory");
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      this.log(`[strata-exec] a worker died running a ${job.kind} command (${how})`);
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
    const rssGrowthMb = () => {
      const now = worker.rssMb();
      return now === undefined || rssAtStart === undefined ? 0 : now - rssAtStart;
    };
    const cpuTimer = setInterval(() => {
      if (cpuUsed() > job.limits.cpuMs) kill("cpu");
      else if (rssGrowthMb() > job.limits.memoryMb + RSS_HEADROOM_MB) kill("memory");
    }, CPU_SAMPLE_MS);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
    const message: ToWorker = {
      type: "run",
      id,
      kind: job.kind,
      request: job.request,
      bytes: job.bytes,
      limits: job.limits,
    };
    if (!worker.send(message)) onExit(null, null);
  }
}

/** Why a worker that exited before it was ready failed: the last line of its stderr (the thrown error), or its exit. */
function startFailure(worker: WorkerProcess, code: number | null): string {
  const lines = worker.stderrLines();
  const error = lines.findLast((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1);
  return error ?? `the execution worker exited with code ${code} while starting`;
}

const failed = (status: number, error: string, usage: PoolUsage = { wallMs: 0, cpuMs: 0 }): PoolOutcome => ({
  type: "failed",
  status,
  error,
  usage,
});

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
