/**
 * One pool worker as a child process of the execution service (`child_process.fork` of worker.ts, IPC with the
 * structured-clone serialization): a command that exhausts its heap, or makes V8 abort on a huge allocation,
 * takes down only its own process — never the service and the other commands (a worker thread shares the
 * service's process, and V8 cannot always end a thread at its heap limit: a doubling allocation past it aborts
 * the whole process). Per worker: the V8 heap cap (`--max-old-space-size`), its main thread's CPU time read from
 * procfs, and the tail of its stderr, which tells a memory death
 * (V8's `heap out of memory` / `Fatal process out of memory`) from another crash. Node-only.
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { FromWorker, ToWorker } from "./protocol";

/** Bytes of stderr kept to explain a worker's death. */
const STDERR_TAIL_BYTES = 8192;
/** Bytes of a page in `/proc/<pid>/statm` (4 KiB on x86-64 and most arm64 Linux builds). */
const PAGE_BYTES = 4096;
/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ; 100 on Linux builds). */
const USER_HZ = 100;
/** What V8 prints when a process dies of memory (heap limit, or an allocation it cannot make). */
const MEMORY_DEATH = /heap out of memory|Fatal process out of memory|Reached heap limit|invalid size error/i;

/** A forked worker; see the module comment. */
export class WorkerProcess {
  readonly child: ChildProcess;
  private stderrTail = "";
  private exited = false;

  /**
   * Fork `script` (a `.ts` script loads through tsx) with a heap cap of `memoryMb` MiB. Its stderr is kept (tail)
   * and copied to this process's stderr, so its log lines are not lost.
   */
  constructor(script: URL, memoryMb: number) {
    const execArgv = [`--max-old-space-size=${memoryMb}`];
    if (script.pathname.endsWith(".ts")) execArgv.unshift(`--import=${import.meta.resolve("tsx")}`);
    // The service's token authenticates the app's calls to the service; a worker never needs it.
    const { STRATA_EXEC_TOKEN: _token, ...env } = process.env;
    this.child = fork(fileURLToPath(script), [], {
      execArgv,
      env,
      serialization: "advanced",
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    });
    this.child.stderr?.on("data", (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });
    this.child.once("exit", () => {
      this.exited = true;
    });
    // An IPC write to a process that just died: its exit reports it.
    this.child.on("error", () => undefined);
  }

  /** Send a message; false when the worker is gone (its exit is reported to listeners). */
  send(message: ToWorker): boolean {
    if (this.exited || !this.child.connected) return false;
    this.child.send(message);
    return true;
  }

  on(event: "message", listener: (message: FromWorker) => void): void;
  on(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  on(event: "message" | "exit", listener: (...args: never[]) => void): void {
    this.child.on(event, listener as (...args: unknown[]) => void);
  }

  off(event: "message" | "exit", listener: (...args: never[]) => void): void {
    this.child.off(event, listener as (...args: unknown[]) => void);
  }

  /**
   * CPU time the worker's main thread has used so far (ms, user + system), from `/proc/<pid>/task/<pid>/stat`:
   * the thread that runs the shell. The runtimes' own threads (python3, node, sqlite3: just-bash's workers) are
   * bounded by their per-run deadline instead (shell-runtimes.ts), V8's compiler and GC threads not at all.
   * `undefined` where there is no procfs (the caller then counts wall-clock time).
   */
  cpuMs(): number | undefined {
    const pid = this.child.pid;
    if (pid === undefined || this.exited) return undefined;
    try {
      const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces) in parentheses: state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    } catch {
      return undefined;
    }
  }

  /**
   * Its resident memory (MiB) from `/proc/<pid>/statm`: the V8 heap and everything outside it, such as the
   * WebAssembly memory of python3 and sqlite3 (just-bash's worker threads in this process), which the heap cap
   * does not bound. `undefined` where there is no procfs.
   */
  rssMb(): number | undefined {
    const pid = this.child.pid;
    if (pid === undefined || this.exited) return undefined;
    try {
      const pages = Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
      return Number.isFinite(pages) ? (pages * PAGE_BYTES) / (1024 * 1024) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Whether its stderr says it died of memory (call after its exit). */
  diedOfMemory(): boolean {
    return MEMORY_DEATH.test(this.stderrTail);
  }

  /** Its stderr's last lines (kept tail), trimmed, blank ones left out. */
  stderrLines(): string[] {
    return this.stderrTail
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
  }

  /** SIGKILL it and resolve once it has exited. */
  async terminate(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGKILL");
    await gone;
  }
}
