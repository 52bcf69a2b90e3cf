/**
 * One sandbox command's process (the argv bwrap.ts builds), spawned in its own process group and held to its
 * limits: wall clock and pi's timeout (timers), CPU (all of the command's processes, sampled from /proc every
 * 250 ms), output (stop reading and kill), the tree's size on disk (sampled every second, kill); an exit that
 * tells of RLIMIT_CPU or of memory exhaustion is reported as that kill.
 *
 * Node-only (lib/exec/service/).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { lstat, readdir, readFile } from "node:fs/promises";
import { constants } from "node:os";
import path from "node:path";
import { formatBytes, killReport } from "@/lib/exec/limits";
import type { SandboxCommand, SandboxLimits, SandboxOutcome } from "./backend";

const CPU_SAMPLE_MS = 250;
const TREE_SAMPLE_MS = 1000;
const CLOCK_TICKS = 100;
const MEMORY_FAILURE =
  /JavaScript heap out of memory|Array buffer allocation failed|Fatal process out of memory|MemoryError|Cannot allocate memory|std::bad_alloc|memory allocation of \d+ bytes failed|out of memory/i;

/** Why the command was stopped: a limit, pi's timeout, or an abort. */
type Stop = "wall" | "cpu" | "output" | "timeout" | "abort" | "tree";

/** Bytes allocated on disk below `dir` (st_blocks, so a sparse file counts what it holds), without following links. */
async function treeDiskBytes(dir: string): Promise<number> {
  let bytes = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const at = pending.pop() as string;
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(at, entry.name);
      const st = await lstat(full).catch(() => undefined);
      if (!st) continue;
      bytes += st.blocks * 512;
      if (st.isDirectory()) pending.push(full);
    }
  }
  return bytes;
}

/** CPU ms used by `pid` and every process below it (live ones, and the reaped ones their parents waited for). */
async function treeCpuMs(pid: number): Promise<number> {
  let ticks = 0;
  const queue = [pid];
  for (let n = 0; n < queue.length && n < 10_000; n++) {
    const p = queue[n];
    try {
      const stat = await readFile(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the name: state(0) … utime(11) stime(12) cutime(13) cstime(14).
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      const children = await readFile(`/proc/${p}/task/${p}/children`, "utf8");
      for (const c of children.split(" ")) if (c.trim()) queue.push(Number(c));
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

/**
 * The command's output as it arrives: its total bytes, and its last chunks (older ones dropped once the newer
 * ones hold `limit` bytes).
 */
class OutputTail {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes received in all. */
  bytes = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.bytes += chunk.byteLength;
    this.chunks.push(chunk);
    this.kept += chunk.byteLength;
    while (this.kept - this.chunks[0].byteLength >= this.limit)
      this.kept -= (this.chunks.shift() as Buffer).byteLength;
  }

  /** The last `limit` bytes received, as UTF-8 text. */
  text(): string {
    let buffer = Buffer.concat(this.chunks);
    if (buffer.byteLength > this.limit) buffer = buffer.subarray(buffer.byteLength - this.limit);
    return buffer.toString("utf8");
  }
}

/**
 * Start the limits' timers for the command running as `child`: the wall clock, pi's timeout (when it comes before
 * the wall clock), the CPU time of its processes (every {@link CPU_SAMPLE_MS}) and the tree's bytes on disk (every
 * {@link TREE_SAMPLE_MS}); each calls `kill` with its reason.
 * @returns `cpuMs()`, the most CPU time sampled so far, and `stop()`, which clears every timer.
 */
function startLimitTimers(
  child: ChildProcess,
  command: SandboxCommand,
  kill: (why: Stop) => void,
): { cpuMs: () => number; stop: () => void } {
  const { limits } = command;
  let cpuMs = 0;
  const wallTimer = setTimeout(() => kill("wall"), limits.wallMs);
  const timeoutTimer =
    command.timeoutMs !== undefined && command.timeoutMs < limits.wallMs
      ? setTimeout(() => kill("timeout"), command.timeoutMs)
      : undefined;
  let sampling = false;
  const cpuTimer = setInterval(async () => {
    if (sampling || !child.pid) return;
    sampling = true;
    cpuMs = Math.max(cpuMs, await treeCpuMs(child.pid));
    sampling = false;
    if (cpuMs > limits.cpuMs) kill("cpu");
  }, CPU_SAMPLE_MS);
  let measuring = false;
  const treeTimer = setInterval(async () => {
    if (measuring) return;
    measuring = true;
    const bytes = await treeDiskBytes(command.treeDir);
    measuring = false;
    if (bytes > limits.treeBytes) kill("tree");
  }, TREE_SAMPLE_MS);
  const stop = () => {
    clearTimeout(wallTimer);
    clearTimeout(timeoutTimer);
    clearInterval(cpuTimer);
    clearInterval(treeTimer);
  };
  return { cpuMs: () => cpuMs, stop };
}

/**
 * The outcome of a command that closed with `code` or signal `sig`: its output (with a note when it was stopped at
 * the tree limit), exit code and usage, and the kill when a limit stopped it, its exit tells of RLIMIT_CPU, or it
 * failed with a memory error.
 */
function outcomeOf(
  closed: { code: number | null; sig: NodeJS.Signals | null },
  run: { output: OutputTail; stopped: Stop | undefined; cpuMs: number; started: number },
  limits: SandboxLimits,
): SandboxOutcome {
  const { code, sig } = closed;
  const { cpuMs, started } = run;
  let stopped = run.stopped;
  let output = run.output.text();
  if (stopped === "tree") {
    const limit = formatBytes(limits.treeBytes);
    output += `${output && !output.endsWith("\n") ? "\n" : ""}Command stopped: it wrote more than ${limit} to /workspace (limit ${limit}).\n`;
  }
  const exitCode = code ?? 128 + (sig ? (constants.signals[sig as NodeJS.Signals] ?? 9) : 9);
  const outcome: SandboxOutcome = {
    output,
    outputBytes: run.output.bytes,
    exitCode,
    timedOut: stopped === "timeout",
    aborted: stopped === "abort",
    usage: { wallMs: Math.round(performance.now() - started), cpuMs: Math.round(cpuMs) },
  };
  // RLIMIT_CPU's SIGXCPU (exit 128 + 24) or SIGKILL at the hard limit: the CPU limit.
  if (!stopped && (exitCode === 152 || (exitCode === 137 && cpuMs >= limits.cpuMs))) stopped = "cpu";
  if (stopped === "wall" || stopped === "cpu" || stopped === "output") {
    outcome.killed = killReport(stopped, limits);
  } else if (!stopped && exitCode !== 0 && MEMORY_FAILURE.test(output.slice(-4096))) {
    outcome.killed = killReport("memory", limits);
  }
  return outcome;
}

/** Spawn `argv` in its own process group with the environment `env` (and nothing else) and enforce the limits. */
export function execute(
  argv: string[],
  env: NodeJS.ProcessEnv,
  command: SandboxCommand,
  signal?: AbortSignal,
): Promise<SandboxOutcome> {
  const { limits } = command;
  const started = performance.now();
  const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  if (child.pid) command.onSpawn?.(child.pid);
  const output = new OutputTail(limits.outputBytes);
  let stopped: Stop | undefined;
  const kill = (why: Stop) => {
    stopped ??= why;
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const onData = (chunk: Buffer) => {
    output.add(chunk);
    if (output.bytes > limits.outputBytes) kill("output");
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const timers = startLimitTimers(child, command, kill);
  const onAbort = () => kill("abort");
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  return new Promise((resolve, reject) => {
    child.once("error", (error) => {
      timers.stop();
      reject(new Error(`The sandbox could not start ${argv[0]}: ${error.message}`));
    });
    child.once("close", (code, sig) => {
      timers.stop();
      signal?.removeEventListener("abort", onAbort);
      resolve(outcomeOf({ code, sig }, { output, stopped, cpuMs: timers.cpuMs(), started }, limits));
    });
  });
}
