/**
 * The sandbox seam: how the execution service runs a command of the project's own toolchain (`npm test`,
 * `pytest`, `cargo test`) on a materialised copy of the project's working tree. One interface, so a hosted
 * sandbox (Vercel Sandbox, E2B, a Kubernetes job) is one more implementation of `SandboxBackend`; the
 * materialisation, the diff and the write-back to the VFS (lib/exec/service/sandbox/run.ts) stay the same.
 * See docs/sandbox.md.
 *
 * Node-only (lib/exec/service/).
 */
import { SANDBOX_EXEC_LIMITS } from "@/lib/exec/limits";
import type { ExecKill, ExecLimits } from "@/lib/exec/types";

/** Limits of one sandbox command: the service's `ExecLimits` and a process cap. */
export interface SandboxLimits extends ExecLimits {
  /** Most processes (and threads) the command may have at once (RLIMIT_NPROC of the sandbox's user). */
  processes: number;
  /** Largest file a process may write anywhere in the sandbox, bytes (RLIMIT_FSIZE: a write past it fails with SIGXFSZ/EFBIG). */
  fileBytes: number;
  /**
   * Most bytes the tree at /workspace may hold on disk (allocated blocks, sampled every second); over it the
   * command is stopped with `Command stopped: it wrote more than … to /workspace (limit …).` in its output.
   */
  treeBytes: number;
}

/**
 * Defaults: lib/exec/limits.ts `SANDBOX_EXEC_LIMITS` (wall 300 s, CPU 60 s, 512 MiB, 16 MiB output), 512
 * processes and threads (each thread counts: a node process has about ten), files of at most 512 MiB and a
 * tree of at most 1 GiB on disk.
 */
export const SANDBOX_DEFAULT_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  ...SANDBOX_EXEC_LIMITS,
  processes: 512,
  fileBytes: 512 * 1024 * 1024,
  treeBytes: 1024 * 1024 * 1024,
});

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
  /** Told the pid of the process group started (the execution pool kills it when it replaces the worker). */
  onSpawn?: (pid: number) => void;
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
