/**
 * The execution service's interface (lib/exec): how the pipeline asks for CPU-heavy work — a shell command
 * on a project's VFS, a command in the real sandbox, an archive import — without running it on the request's
 * event loop. `Executor` is the one seam: `createExecutor()` (lib/exec/client.ts) answers with the HTTP
 * client of the local service started by `npm start` (`STRATA_EXEC_URL`), and a hosted deployment points the
 * same interface at a hosted sandbox. Edge-safe: types and `fetch` only.
 */

/** Hard limits of one command. Units: ms, ms of CPU, MiB, bytes. */
export interface ExecLimits {
  /** Wall-clock limit (ms); the command is killed at it. */
  wallMs: number;
  /** CPU-time limit (ms of CPU the command's worker or process used). */
  cpuMs: number;
  /** Memory cap (MiB): a worker's heap, a sandbox process's address space. */
  memoryMb: number;
  /** Output cap (bytes of stdout + stderr): the command is killed when it prints more. */
  outputBytes: number;
}

/** Why the service stopped a command before it ended by itself. */
export type ExecKillReason = "wall" | "cpu" | "memory" | "output";

/** A command stopped at a limit: the reason and the text reported to the model (and the user). */
export interface ExecKill {
  reason: ExecKillReason;
  /** e.g. "Command stopped: it used more than 10 s of CPU time (limit 10 s)." */
  message: string;
}

/** Where a command acts: one project of one workspace VFS (Postgres), and its working directory. */
export interface ExecTarget {
  workspaceId: string;
  /**
   * The user the command runs for (the run's caller): the service shares its workers by workspace and user
   * (docs/exec.md "Sharing the workers"). Without it the workspace's commands count as one unknown user's.
   */
  userId?: string;
  /** Absolute VFS path of the project root, e.g. "/strata". */
  projectRoot: string;
  /** Absolute VFS path of the working directory (inside `projectRoot`). */
  cwd: string;
  /**
   * The run that owns the writes, so project paths are recorded in `session_pending_paths` before the
   * service flushes them (a crash between flush and checkpoint is then recovered by the next run). Its session is
   * also whose working tree the command acts on (lib/vfs/worktree-store.ts); without it, the project's main line.
   */
  pending?: { sessionId: string; runId?: string };
}

/** `POST /v1/shell`: a script in the simulated shell (just-bash + git + node/python/sqlite) on the VFS. */
export interface ShellExecRequest extends ExecTarget {
  script: string;
  env?: Record<string, string>;
  /** pi's bash `timeout` (ms), capped by the wall-clock limit; reported as pi's "timed out" (not a kill). */
  timeoutMs?: number;
  limits?: Partial<ExecLimits>;
  /** Author of commits made by `git commit` in the shell. */
  author?: { name: string; email: string };
  /**
   * Answer only the tail pi's bash keeps (`truncateTail` of lib/tools/truncate.ts with these bounds) as `output`,
   * with the whole output's counts in `ExecResult.tail`, so the caller never parses megabytes of output.
   */
  outputTail?: { maxLines: number; maxBytes: number };
}

/** `truncateTail`'s result for the whole output (its content is `ExecResult.output`), and its last line's bytes. */
export interface ExecOutputTail {
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  lastLinePartial: boolean;
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
  /** UTF-8 bytes of the output's last line (without its newline); set when `lastLinePartial`. */
  lastLineBytes?: number;
}

/** `POST /v1/sandbox`: a command in the real sandbox on a materialised copy of the project's tree. */
export interface SandboxExecRequest extends ExecTarget {
  command: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  limits?: Partial<ExecLimits>;
}

/** What a shell or sandbox command produced. */
export interface ExecResult {
  /** stdout followed by stderr; at most the last `ExecLimits.outputBytes` bytes. */
  output: string;
  /** Bytes the command printed in all (may exceed `output`'s length when capped). */
  outputBytes: number;
  exitCode: number;
  /** pi's timeout (the request's `timeoutMs`) passed. */
  timedOut: boolean;
  /** The caller's signal aborted it. */
  aborted: boolean;
  /** Set when the service stopped it at a limit. */
  killed?: ExecKill;
  /** With the request's `outputTail`: the whole output's truncation (then `output` is only the tail). */
  tail?: ExecOutputTail;
  /** Absolute VFS paths the command created, changed or deleted, flushed to Postgres (sorted). */
  changedPaths: string[];
  /** Measured cost: wall-clock ms and CPU ms. */
  usage: { wallMs: number; cpuMs: number };
}

/** `POST /v1/import`: unpack an archive into a project directory of a workspace VFS. */
export interface ImportExecRequest {
  workspaceId: string;
  /** The user importing (shares the workers as `ExecTarget.userId`). */
  userId?: string;
  /** Absolute VFS path the archive is unpacked into. */
  root: string;
  fileName: string;
}

/** What `POST /v1/import` wrote (lib/vfs/import.ts `ImportReport`): files and symlinks, content bytes, skips. */
export interface ImportExecResult {
  files: number;
  bytes: number;
  /** Entries not written, in archive order, with the reason. */
  skipped: { path: string; reason: string }[];
}

/**
 * The JSON of `POST /v1/import` (status 200): the report, or why the import failed — the error's name and
 * message exactly as in process (an `ArchiveRefusedError`'s text, "Cannot import into …"), and a
 * `VfsConflictError`'s paths — with nothing of it kept. A failure is an answer, not a service error.
 */
export type ImportExecAnswer =
  | { report: ImportExecResult }
  | { failure: { name: string; message: string; paths?: string[] } };

/**
 * A command waits for a worker: what it waits behind, sent once when it is queued instead of started
 * (`waitNotice` of lib/exec/limits.ts is its text).
 */
export interface ExecWait {
  /** Commands running in the service now. */
  running: number;
  /** Of them, this command's user's (without `userId`: its workspace's). */
  yours: number;
}

/**
 * The execution seam. `onWait` is called when the command has to wait for a worker (at most once, before the
 * answer). Errors: `ExecUnavailableError` when the service cannot be reached.
 */
export interface Executor {
  shell(
    request: ShellExecRequest,
    signal?: AbortSignal,
    onWait?: (wait: ExecWait) => void,
  ): Promise<ExecResult>;
  sandbox(
    request: SandboxExecRequest,
    signal?: AbortSignal,
    onWait?: (wait: ExecWait) => void,
  ): Promise<ExecResult>;
}

/** The service is not reachable (not started, crashed, wrong URL). The message says what to do. */
export class ExecUnavailableError extends Error {
  override name = "ExecUnavailableError";
}
