/**
 * The execution service's worker pool: `size` worker processes (worker.ts, forked by worker-process.ts), each
 * running one command at a time, watched by command-watch.ts (the per-command limits). A worker is a process, not
 * a thread, so a command that kills its worker (V8 aborting on a huge allocation) never takes the service down.
 *
 * Sharing (docs/exec.md "Sharing the workers"): a command belongs to a tenant (its workspace and user, see
 * fair-queue.ts). Waiting commands are served in turns — round-robin over workspaces, then over a workspace's users,
 * first come first served within one user — and a tenant at its cap (`perWorkspace` / `perUser` running commands)
 * is passed over while one under its caps waits. When every worker is busy, a command of a tenant that runs
 * nothing gets a worker of its own, started for it and ended after it, so other users' long commands never hold
 * it back; at most `maxProcesses` worker processes exist at once (pooled and own ones), past that it waits its turn.
 * A command asking another heap cap than the pool's also runs in a worker of its own, in its turn.
 *
 * A terminated or crashed worker is replaced at once; the processes a handler registered are killed with it.
 * Node-only.
 */
import type { ExecWait } from "@/lib/exec/types";
import { type CommandJob, failed, type PoolOutcome, watchCommand } from "./command-watch";
import { FairQueue, type Tenant } from "./fair-queue";
import type { FromWorker } from "./protocol";
import { WorkerProcess } from "./worker-process";

export type { PoolOutcome, PoolUsage } from "./command-watch";

/** How long a worker may take to load its handlers before it counts as failed (ms). */
const START_TIMEOUT_MS = 60_000;
/** The tenant of a command whose request names none. */
const NO_TENANT: Tenant = { workspaceId: "", userId: "" };

/** One command for the pool. */
export interface PoolJob extends CommandJob {
  /** Whose command it is (the request's `workspaceId` and `userId`); default: an unknown one. */
  tenant?: Tenant;
}

interface Slot {
  worker: WorkerProcess;
  memoryMb: number;
  ready: Promise<void>;
  busy: boolean;
  /** A worker of one command (its own heap cap, or a tenant's own worker): ended after it, never replaced. */
  dedicated: boolean;
  gone: boolean;
  /** It loaded its handlers (sent `ready`). */
  started: boolean;
}

interface Waiting {
  job: PoolJob;
  tenant: Tenant;
  /** It needs a worker of its own: another heap cap than the pool's. */
  own: boolean;
  signal?: AbortSignal;
  resolve: (outcome: PoolOutcome) => void;
}

export interface PoolOptions {
  /** Number of pooled workers (default: max(2, CPU cores)). */
  size: number;
  /** Heap cap of a pooled worker (MiB). */
  memoryMb: number;
  /** Commands of one workspace running at once before others go first (default: {@link defaultCaps}). */
  perWorkspace?: number;
  /** Commands of one user running at once before others go first (default: {@link defaultCaps}). */
  perUser?: number;
  /** Most worker processes at once, pooled and own ones (default: {@link defaultCaps}; at least `size` + 1). */
  maxProcesses?: number;
  /** The worker script (default: ./worker.ts next to this file). */
  workerUrl?: URL;
  log?: (line: string) => void;
}

/**
 * The sharing defaults for a pool of `size` workers: per workspace and per user max(1, size − 1) running commands
 * (one tenant leaves a worker to the others when they wait), at most 2 × size worker processes.
 */
export function defaultCaps(size: number): { perWorkspace: number; perUser: number; maxProcesses: number } {
  const perTenant = Math.max(1, size - 1);
  return { perWorkspace: perTenant, perUser: perTenant, maxProcesses: Math.max(2 * size, size + 1) };
}

/** The pool; see the module comment. */
export class ExecPool {
  private readonly slots: Slot[] = [];
  /** Workers of one command each (running it, or starting for it). */
  private readonly own = new Set<Slot>();
  private readonly queue: FairQueue<Waiting>;
  private readonly maxProcesses: number;
  private nextId = 1;
  private startFailures = 0;
  private closed = false;
  private readonly workerUrl: URL;
  private readonly log: (line: string) => void;

  constructor(private readonly options: PoolOptions) {
    this.workerUrl = options.workerUrl ?? new URL("./worker.ts", import.meta.url);
    this.log = options.log ?? ((line) => console.error(line));
    const defaults = defaultCaps(options.size);
    this.queue = new FairQueue({
      perWorkspace: options.perWorkspace ?? defaults.perWorkspace,
      perUser: options.perUser ?? defaults.perUser,
    });
    this.maxProcesses = Math.max(options.maxProcesses ?? defaults.maxProcesses, options.size + 1);
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn(options.memoryMb, false));
  }

  /** Number of pooled workers. */
  get size(): number {
    return this.options.size;
  }

  /** Commands running now (on pooled and own workers, including one whose worker is starting), and waiting. */
  get load(): { busy: number; queued: number } {
    return { busy: this.queue.running, queued: this.queue.size };
  }

  /** Worker processes now: the pooled ones (replacements included) and the own ones. */
  get processes(): number {
    return this.slots.length + this.own.size;
  }

  /** Resolves when every pooled worker has loaded its handlers. @throws the first worker's start failure. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /**
   * Run `job` in its turn (see the module comment); never rejects (see `PoolOutcome`). When it cannot start at once,
   * `onWait` is called once, synchronously, with what it waits behind (`ExecWait`).
   */
  run(job: PoolJob, signal?: AbortSignal, onWait?: (wait: ExecWait) => void): Promise<PoolOutcome> {
    if (this.closed) return Promise.resolve(failed(503, "The execution service is stopping."));
    if (signal?.aborted) return Promise.resolve({ type: "aborted", usage: { wallMs: 0, cpuMs: 0 } });
    return new Promise((resolve) => {
      const tenant = job.tenant ?? NO_TENANT;
      const own = job.limits.memoryMb !== this.options.memoryMb;
      const waiting: Waiting = { job, tenant, own, signal, resolve };
      this.queue.push(waiting);
      signal?.addEventListener(
        "abort",
        () => {
          if (this.queue.remove(waiting)) resolve({ type: "aborted", usage: { wallMs: 0, cpuMs: 0 } });
        },
        { once: true },
      );
      this.dispatch();
      if (this.queue.has(waiting)) onWait?.(this.queue.load(tenant));
    });
  }

  /** Terminate every worker; queued commands answer 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (let w = this.queue.take(); w; w = this.queue.take()) {
      this.queue.finished(w.tenant);
      w.resolve(failed(503, "The execution service is stopping."));
    }
    await Promise.all([...this.slots, ...this.own].map((s) => this.retire(s)));
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
    this.own.delete(slot);
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

  /**
   * Start what may start: free pooled workers take waiting commands in turn (a command of another heap cap takes a
   * process of its own while there is room); then, every worker being busy, each tenant that runs nothing gets a
   * worker of its own for its next command, while the processes stay within `maxProcesses` — only while the pool
   * is whole (a pooled worker that failed to start is retried with a backoff, not worked around at every command).
   */
  private dispatch(): void {
    if (this.closed) return;
    for (;;) {
      const slot = this.slots.find((s) => !s.busy && !s.gone);
      const room = this.processes < this.maxProcesses;
      const next = this.queue.take((w) => (w.own ? room : slot !== undefined));
      if (!next) break;
      // (`!slot` only narrows the type: a command without its own cap was taken because a slot is free.)
      if (next.own || !slot) this.runOwn(next);
      else void this.execute(slot, next);
    }
    if (this.slots.length < this.options.size || this.slots.some((s) => !s.busy && !s.gone)) return;
    while (this.processes < this.maxProcesses) {
      const next = this.queue.takeStarved();
      if (!next) break;
      this.runOwn(next);
    }
  }

  /** Run `waiting` on a worker started for it (its own heap cap, or the pool's), ended after it. */
  private runOwn(waiting: Waiting): void {
    const slot = this.spawn(waiting.job.limits.memoryMb, true);
    this.own.add(slot);
    void this.execute(slot, waiting);
  }

  private async execute(slot: Slot, waiting: Waiting): Promise<void> {
    slot.busy = true;
    const ended = await slot.ready.then(
      () => watchCommand(slot.worker, this.nextId++, waiting.job, waiting.signal, this.log),
      (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.log(`[strata-exec] a worker failed to start: ${why}`);
        return { outcome: failed(500, `The execution worker failed to start: ${why}`), terminate: true };
      },
    );
    this.queue.finished(waiting.tenant);
    if (ended.terminate || slot.dedicated) void this.retire(slot);
    else {
      slot.busy = false;
      this.dispatch();
    }
    waiting.resolve(ended.outcome);
  }
}

/** Why a worker that exited before it was ready failed: the last line of its stderr (the thrown error), or its exit. */
function startFailure(worker: WorkerProcess, code: number | null): string {
  const lines = worker.stderrLines();
  const error = lines.findLast((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1);
  return error ?? `the execution worker exited with code ${code} while starting`;
}
