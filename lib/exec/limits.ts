/**
 * The execution service's hard limits (lib/exec): the defaults of each kind of command, how a request's partial
 * limits merge with them, and the exact text reported when a command is stopped at one (`Command stopped: …`,
 * the bash tool's error text). Edge-safe.
 */
import type { ExecKill, ExecKillReason, ExecLimits, ExecWait } from "./types";

/** Defaults of a simulated-shell command (`/v1/shell`, `/v1/import`): 120 s wall, 60 s CPU, 512 MiB, 16 MiB output. */
export const SHELL_EXEC_LIMITS: Readonly<ExecLimits> = Object.freeze({
  wallMs: 120_000,
  cpuMs: 60_000,
  memoryMb: 512,
  outputBytes: 16 * 1024 * 1024,
});

/** Defaults of a sandbox command (`/v1/sandbox`): as the shell's, with 300 s of wall-clock time. */
export const SANDBOX_EXEC_LIMITS: Readonly<ExecLimits> = Object.freeze({
  ...SHELL_EXEC_LIMITS,
  wallMs: 300_000,
});

/** The defaults of a command kind (`shell`, `sandbox`, `import`, …): the sandbox's for `sandbox`, else the shell's. */
export function defaultLimits(kind: string): ExecLimits {
  return { ...(kind === "sandbox" ? SANDBOX_EXEC_LIMITS : SHELL_EXEC_LIMITS) };
}

/**
 * `requested` over the kind's defaults. A value that is not a positive finite number is ignored (the default
 * stays); a request cannot raise a limit above the kind's default.
 */
export function resolveLimits(kind: string, requested?: Partial<ExecLimits>): ExecLimits {
  const limits = defaultLimits(kind);
  for (const key of Object.keys(limits) as (keyof ExecLimits)[]) {
    const value = requested?.[key];
    if (typeof value === "number" && Number.isFinite(value) && value > 0)
      limits[key] = Math.min(limits[key], value);
  }
  return limits;
}

/** `1500` → "1.5 s", `120000` → "120 s", `250` → "250 ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(1))} s`;
}

/** `16777216` → "16 MiB", `65536` → "64 KiB", `1000` → "1000 bytes". */
export function formatBytes(bytes: number): string {
  const unit = (n: number, name: string) => `${Number.isInteger(n) ? n : Number(n.toFixed(1))} ${name}`;
  if (bytes >= 1024 * 1024) return unit(bytes / (1024 * 1024), "MiB");
  if (bytes >= 1024) return unit(bytes / 1024, "KiB");
  return `${bytes} bytes`;
}

/**
 * The kill report of a command stopped at `reason`'s limit, e.g.
 * `Command stopped: it used more than 10 s of CPU time (limit 10 s).`
 */
export function killReport(reason: ExecKillReason, limits: ExecLimits): ExecKill {
  const message = {
    wall: `it ran for more than ${formatDuration(limits.wallMs)} (wall-clock limit ${formatDuration(limits.wallMs)})`,
    cpu: `it used more than ${formatDuration(limits.cpuMs)} of CPU time (limit ${formatDuration(limits.cpuMs)})`,
    memory: `it needed more than ${limits.memoryMb} MiB of memory (limit ${limits.memoryMb} MiB)`,
    output: `it printed more than ${formatBytes(limits.outputBytes)} of output (limit ${formatBytes(limits.outputBytes)})`,
  }[reason];
  return { reason, message: `Command stopped: ${message}.` };
}

/**
 * The simulated shell's kill report of a command past the output cap (`outputBytes`), which counts a command's
 * output wherever it goes, naming the file size limit `fileBytes`, e.g. `Command stopped: it produced more than
 * 16 MiB of output, printed or written through a redirect or a pipe (the limit of one command's output is 16 MiB;
 * a file holds at most 10 MiB).`
 */
export function shellOutputKill(limits: ExecLimits, fileBytes: number): ExecKill {
  const cap = formatBytes(limits.outputBytes);
  return {
    reason: "output",
    message: `Command stopped: it produced more than ${cap} of output, printed or written through a redirect or a pipe (the limit of one command's output is ${cap}; a file holds at most ${formatBytes(fileBytes)}).`,
  };
}

/**
 * The notice of a command waiting for a worker (`ExecWait`), shown while it waits, e.g.
 * `Waiting for a free execution worker: 2 commands of other users are running. This command starts when one of
 * them ends.` (one running: `… is running. This command starts when it ends.`); with commands of the user's own
 * among them, `… 2 commands of other users and 1 of yours are running. …`; with none running (the workers are starting), `Waiting for a free execution worker (the workers are
 * starting).`
 */
export function waitNotice(wait: ExecWait): string {
  const others = wait.running - wait.yours;
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const parts = [
    ...(others > 0 ? [`${count(others, "command")} of other users`] : []),
    ...(wait.yours > 0
      ? [others > 0 ? `${wait.yours} of yours` : `${count(wait.yours, "command")} of yours`]
      : []),
  ];
  if (parts.length === 0) return "Waiting for a free execution worker (the workers are starting).";
  const [verb, when] = wait.running === 1 ? ["is", "it ends"] : ["are", "one of them ends"];
  return `Waiting for a free execution worker: ${parts.join(" and ")} ${verb} running. This command starts when ${when}.`;
}

/** The exit code reported for a command stopped at a limit (as a shell reports SIGKILL: 128 + 9). */
export const KILLED_EXIT_CODE = 137;
