/**
 * The sandbox seam: how the execution service runs a command of the project's own toolchain (`npm test`,
 * `pytest`, `cargo test`) on a materialised copy of the project's working tree. One interface, so a hosted
 * sandbox (Vercel Sandbox, E2B, a Kubernetes job) is one more implementation of `SandboxBackend`; the
 * materialisation, the diff and the write-back to the VFS (lib/exec/service/sandbox/run.ts) stay the same.
 * See docs/sandbox.md.
 *
 * Node-only (lib/exec/service/).
 */
import type { ExecKill, ExecLimits } from "@/lib/exec/types";

/** Limits of one sandbox command: the service's `ExecLimits` and a process cap. */
export interface SandboxLimits extends ExecLimits {
  /** Most processes (and threads) the command may have at once (RLIMIT_NPROC of the sandbox's user). */
  processes: number;
}

/** Defaults (the contract's sandbox row): wall 300 s, CPU 60 s, memory 512 MiB, output 16 MiB, 256 processes. */
export const SANDBOX_DEFAULT_LIMITS: SandboxLimits = {
  wallMs: 300_000,
  cpuMs: 60_000,
  memoryMb: 512,
  outputBytes: 16 * 1024 * 1024,
  processes: 256,
};

/** One command for a backend: what to run, where the tree is, and how it is bounded. */
export interface SandboxCommand {
  /** A bash script, run as `bash -c <command>` (a login-less, non-interactive shell). */
  command: string;
  /** Host directory holding the materialised tree; the backend shows it writable at `/workspace`. */
  treeDir: string;
  /** Working directory relative to the tree root ("" = the root), POSIX, no `..`. */
  cwd: string;
  /** Extra environment from the request; never the service's own environment. */
  env: Record<string, string>;
  limits: SandboxLimits;
  /** pi's bash `timeout` (ms): the command is stopped and `timedOut` set (not a kill). */
  timeoutMs?: number;
}

/** What a backend reports: the combined output (in arrival order) and how the command ended. */
export interface SandboxOutcome {
  /** stdout and stderr as they arrived, at most the last `limits.outputBytes` bytes, UTF-8 decoded. */
  output: string;
  /** Bytes printed in all (may exceed `output`'s length when capped). */
  outputBytes: number;
  /** The command's exit code; 128 + signal number when a signal ended it. */
  exitCode: number;
  timedOut: boolean;
  aborted: boolean;
  killed?: ExecKill;
  /** Wall-clock ms and CPU ms (all of the command's processes) it used. */
  usage: { wallMs: number; cpuMs: number };
}

/**
 * A place that can run one command on a tree directory in isolation: no network, nothing of the host but
 * read-only system directories, only the tree writable, the limits enforced. `run` resolves when every
 * process of the command has ended (the tree is then stable for the diff); it never rejects for a command
 * failure, only for a backend failure (e.g. "bwrap is not installed…").
 */
export interface SandboxBackend {
  /** Short name for logs and docs, e.g. "bwrap". */
  readonly name: string;
  /**
   * Whether the backend can run here; `reason` says what to do when not (e.g. install bubblewrap).
   * Cheap after the first call.
   */
  available(): Promise<{ ok: true } | { ok: false; reason: string }>;
  run(command: SandboxCommand, signal?: AbortSignal): Promise<SandboxOutcome>;
  /**
   * Owner (uid/gid) the materialised tree's entries must have so the sandbox's user can write them, or
   * undefined to keep the service's own.
   */
  treeOwner(): { uid: number; gid: number } | undefined;
}

/** `Command stopped: …` texts of the sandbox's limits (the bash tool reports them as the error). */
export const sandboxKillMessage = {
  wall: (ms: number) =>
    `Command stopped: it ran longer than ${seconds(ms)} (the sandbox's wall-clock limit). Run a shorter command, or split the work.`,
  cpu: (ms: number) =>
    `Command stopped: it used more than ${seconds(ms)} of CPU time (the sandbox's CPU limit). Look for an endless loop, or run less at once.`,
  memory: (mb: number) =>
    `Command stopped: a process ran out of memory (the sandbox's memory cap is ${mb} MiB per process).`,
  output: (bytes: number) =>
    `Command stopped: it printed more than ${mebibytes(bytes)} of output (the sandbox's output cap). Print less, e.g. pipe it through \`tail\` or write it to a file.`,
};

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function mebibytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MiB` : `${bytes} bytes`;
}
