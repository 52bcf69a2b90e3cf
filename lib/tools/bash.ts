/**
 * pi's `bash` tool (`core/tools/bash.ts`), running commands in just-bash (a TypeScript shell
 * interpreter) over the project-confined VFS adapter instead of a host process.
 */

import { Bash, type BashOptions } from "just-bash/browser";
import { z } from "zod";
import { waitNotice } from "@/lib/exec/limits";
import {
  explainMissingCommands,
  projectShellCommands,
  type ShellCapabilities,
  shellCommandNames,
} from "@/lib/exec/shell/commands";
import type { ExecKill, ExecOutputTail } from "@/lib/exec/types";
import { ProjectBashFs } from "@/lib/vfs/bash-fs";
import { runInSandbox, SANDBOX_DESCRIPTION_NOTE, sandboxScript } from "./bash-sandbox";
import { callService } from "./exec-call";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  type TruncationResult,
  truncateTail,
  utf8ByteLength,
} from "./truncate";
import { type AgentTool, type AgentToolResult, type ToolContext, ToolError } from "./types";

const bashSchema = z.object({
  command: z.string().describe("Bash command to execute"),
  timeout: z.number().optional().describe("Timeout in seconds (optional, no default timeout)"),
});

export type BashToolInput = z.infer<typeof bashSchema>;

export interface BashToolDetails {
  truncation?: TruncationResult;
  /** pi's temp file with the full output; Strata keeps none, so this is always undefined. */
  fullOutputPath?: string;
  /** Strata: the command ran in the real sandbox, not the simulated shell (the chat says so). */
  sandbox?: true;
}

export interface BashToolOptions {
  /** Extra environment (e.g. pi's PI_SESSION_ID, PI_PROVIDER, PI_MODEL, PI_REASONING_LEVEL). */
  env?: Record<string, string>;
  /** Prepended to every command on its own line (pi's `commandPrefix`). */
  commandPrefix?: string;
}

const MAX_TIMEOUT_MS = 2_147_483_647;

/** pi's `resolveTimeoutMs`: seconds to ms, validating finiteness, positivity and the setTimeout maximum. */
function resolveTimeoutMs(timeout: number | undefined): number | undefined {
  if (timeout === undefined) return undefined;
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new Error("Invalid timeout: must be a finite number of seconds");
  const ms = timeout * 1000;
  if (ms > MAX_TIMEOUT_MS) throw new Error(`Invalid timeout: maximum is ${MAX_TIMEOUT_MS / 1000} seconds`);
  return ms;
}

/** Tail-truncates combined output and appends pi's "[Showing ...]" notice (without a full-output path). */
function formatOutput(
  output: string,
  emptyText: string,
  tail?: ExecOutputTail,
): { text: string; details?: BashToolDetails } {
  const truncation = truncationOf(output, tail);
  let text = truncation.content || emptyText;
  if (!truncation.truncated) return { text };
  const start = truncation.totalLines - truncation.outputLines + 1;
  const end = truncation.totalLines;
  if (truncation.lastLinePartial) {
    const lastLine = output.endsWith("\n") ? output.slice(0, -1) : output;
    const lineBytes = tail?.lastLineBytes ?? utf8ByteLength(lastLine.slice(lastLine.lastIndexOf("\n") + 1));
    text += `\n\n[Showing last ${formatSize(truncation.outputBytes)} of line ${end} (line is ${formatSize(lineBytes)}).]`;
  } else if (truncation.truncatedBy === "lines") {
    text += `\n\n[Showing lines ${start}-${end} of ${truncation.totalLines}.]`;
  } else {
    text += `\n\n[Showing lines ${start}-${end} of ${truncation.totalLines} (${formatSize(DEFAULT_MAX_BYTES)} limit).]`;
  }
  return { text, details: { truncation } };
}

/**
 * pi's `truncateTail` of a command's output; when the execution service already cut it (`tail`: `output` is the
 * kept tail), its counts of the whole output instead — the same result, without the megabytes.
 */
export function truncationOf(output: string, tail?: ExecOutputTail): TruncationResult {
  if (!tail) return truncateTail(output);
  const { lastLineBytes: _, ...counts } = tail;
  return { content: output, ...counts };
}

/** The git subcommands the shell's `git` runs (lib/exec/shell/git/), for the description. */
const GIT_NAMED = "status, diff, log, show, add, commit, branch, checkout, switch, restore, rev-parse, init";

/**
 * pi's `bash` description, then Strata's sentences: the simulated shell over the project's files and its commands
 * (`shellCommandNames()`), git, the runtimes when the shell has them (`runtimes`: the execution service's shell:
 * node/js-exec, python3, sqlite3), what it does not have, and `SANDBOX_DESCRIPTION_NOTE` (lib/tools/bash-sandbox.ts)
 * only when the workspace's sandbox is on (`sandbox`).
 * @param options.names the shell's commands without the runtimes' (default `shellCommandNames()`).
 */
export function bashToolDescription(
  options: { runtimes: boolean; sandbox: boolean; names?: readonly string[] } = {
    runtimes: false,
    sandbox: false,
  },
): string {
  const names = options.names ?? shellCommandNames();
  const pi = `Execute a bash command in the current working directory. Returns stdout and stderr. Output is truncated to last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). If truncated, full output is saved to a temp file. Optionally provide a timeout in seconds.`;
  const shell = `In Strata this is a simulated shell (just-bash) over the project's files, not a host shell; its commands are ${names.join(", ")}, plus shell builtins such as cd, export, source and test. git works on the project's repository (${GIT_NAMED}).`;
  const runtimes = options.runtimes
    ? " node and js-exec run JavaScript on QuickJS (node -e CODE, node FILE ARGS; synchronous fs, path, child_process and other core modules; the project's own modules by import and, from a script file, by require; no npm packages; timers do not wait); python3 and python run CPython 3.13 on WebAssembly (python3 -c CODE, python3 FILE, python3 -m MODULE; the script's directory or the working directory is on sys.path; standard library only: no pip, no sqlite3 module, no subprocess or threads); sqlite3 runs SQL on database files in the project (sqlite3 FILE 'SQL'; no dot-commands such as .tables). The simulated shell has no npm, npx or pip, no network access and no host programs."
    : " The simulated shell has no node, python, sqlite3, npm, npx or pip, no network access and no host programs.";
  return `${pi} ${shell}${runtimes}${options.sandbox ? ` ${SANDBOX_DESCRIPTION_NOTE}` : ""}`;
}

const appendStatus = (text: string, status: string) => `${text ? `${text}\n\n` : ""}${status}`;

/**
 * just-bash's limits for every shell run. The interpreter shares the server's event loop: the filesystem
 * adapter pauses for one macrotask on a filesystem call once `SHELL_YIELD_EVERY_MS` (10 ms) have passed, but
 * builtin-only loops (`:`, `[`, `read`, arithmetic) never reach it, so commands and loop iterations are bounded
 * to 10,000 (measured 0.3–0.9 s of builtin-only interpretation), and live/input bytes to 64 MiB (a doubling
 * string or a huge pipe fails instead of exhausting memory).
 */
export const SHELL_LIMITS = (timeoutMs?: number) => ({
  maxCommandCount: 10_000,
  maxLoopIterations: 10_000,
  maxAwkIterations: 10_000,
  maxSedIterations: 10_000,
  maxCallDepth: 100,
  maxLiveBytes: 64 * 1024 * 1024,
  maxInputBytes: 64 * 1024 * 1024,
  maxExecutionTimeMs: Math.min(timeoutMs ?? 10 * 60_000, 10 * 60_000),
});

const JUST_BASH_ABORTED = "bash: execution aborted\n";

/** What one just-bash run produced: stdout followed by stderr, the exit code, and why it stopped early. */
export interface ShellRun {
  output: string;
  exitCode: number;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * Builds the shell of one run from the options `runShell` would give just-bash/browser's `Bash` and the runtimes
 * asked for. The default (the browser bundle, edge-safe) has none; the execution service's Node runner
 * (`runtimeShell`, lib/exec/service/shell-runtimes.ts) builds just-bash's Node build with them.
 */
export type ShellFactory = (options: BashOptions, capabilities: ShellCapabilities) => Pick<Bash, "exec">;

/** just-bash/browser's shell. @throws Error when a runtime is asked for: only the Node runner has them. */
const browserShell: ShellFactory = (options, capabilities) => {
  const asked = Object.entries(capabilities).filter(([, on]) => on);
  if (asked.length > 0)
    throw new Error(
      `runShell: ${asked.map(([name]) => name).join(", ")} ${asked.length === 1 ? "needs" : "need"} the Node runner (createShell: runtimeShell from lib/exec/service/shell-runtimes.ts)`,
    );
  return new Bash(options);
};

/**
 * Run `script` in a fresh just-bash shell over the project-confined VFS (no network; the runtimes only when
 * `options.capabilities` asks and `options.createShell` can build them; bounded execution limits), with `cwd` = `ctx.cwd` and `HOME` = the project root. Never throws for a
 * command failure: a filesystem refusal that aborts the script is reported as `bash: <message>` with exit 1.
 * Shared by pi's `bash` tool and the user's `!command` (pi `executeBash`).
 * @param options.timeoutMs stop after this many ms (`timedOut` is then true); capped at 10 minutes.
 * @param options.executionLimits just-bash limits over `SHELL_LIMITS` (the execution service's worker raises the
 *   iteration bounds: its wall-clock, CPU and memory limits stop a runaway command instead).
 * @param options.capabilities the runtimes (js-exec/node, python3, sqlite3; none by default), built by
 *   `options.createShell` (default: just-bash/browser, which has none and throws when one is asked for).
 */
export async function runShell(
  ctx: ToolContext,
  script: string,
  options: {
    signal?: AbortSignal;
    timeoutMs?: number;
    env?: Record<string, string>;
    executionLimits?: BashOptions["executionLimits"];
    capabilities?: ShellCapabilities;
    createShell?: ShellFactory;
  } = {},
): Promise<ShellRun> {
  const { signal, timeoutMs } = options;
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  const capabilities = options.capabilities ?? {};
  const shell = (options.createShell ?? browserShell)(
    {
      fs: new ProjectBashFs(ctx.fs, ctx.projectRoot),
      customCommands: projectShellCommands,
      cwd: ctx.cwd,
      env: { HOME: ctx.projectRoot, ...ctx.shellEnv, ...options.env },
      python: false,
      javascript: false,
      executionLimits: { ...SHELL_LIMITS(timeoutMs), ...options.executionLimits },
    },
    capabilities,
  );
  let output: string;
  let exitCode: number;
  try {
    const result = await shell.exec(script, { signal: controller.signal, rawScript: true });
    // Only the shell's stderr: what a command prints (a file `cat`ed) stays byte for byte.
    output = result.stdout + explainMissingCommands(result.stderr, shellCommandNames(capabilities));
    exitCode = result.exitCode;
  } catch (error) {
    // just-bash aborts the whole script when the filesystem refuses a redirection (e.g. a write
    // outside the project); report it like a shell error: message on stderr, exit code 1. An abort
    // (ours or the timeout's) is reported by the caller, not as shell output.
    output = controller.signal.aborted
      ? ""
      : `bash: ${error instanceof Error ? error.message : String(error)}\n`;
    exitCode = 1;
  } finally {
    if (timer) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  // just-bash's own abort notice is not the command's output; the caller reports the abort.
  if (controller.signal.aborted && output.endsWith(JUST_BASH_ABORTED))
    output = output.slice(0, -JUST_BASH_ABORTED.length);
  return { output, exitCode, timedOut, aborted: signal?.aborted ?? false };
}

/** A command's run through {@link runCommand}: `killed` when the execution service stopped it at a limit. */
export interface CommandRun extends ShellRun {
  killed?: ExecKill;
  /** Set when it ran in the real sandbox (the workspace's sandbox is on and the command needs it). */
  sandboxed?: boolean;
  /** Set when the service answered only the output's tail (`output`): the whole output's truncation counts. */
  tail?: ExecOutputTail;
}

/** Options of {@link runCommand}: `runShell`'s, plus `onWait`, which gets the notice (`waitNotice`) when the command waits for a worker. */
export interface CommandOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  env?: Record<string, string>;
  onWait?: (notice: string) => void;
}

/**
 * Run `script` where `ctx` says: in the execution service when `ctx.exec` is set (the route's VFS flushed before,
 * the changed paths absorbed after; an abort of `signal` aborts the request, which kills the command), else in
 * process (`runShell`). Same options and result as `runShell`, plus `onWait` (called at most once, with
 * `waitNotice`'s text, when the service queues the command behind others; never in process) and `killed`.
 * @throws ExecUnavailableError when the service cannot be reached; ExecRequestError when it refused the command
 *   (e.g. its flush was over the VFS limits).
 */
export async function runCommand(
  ctx: ToolContext,
  script: string,
  options: CommandOptions = {},
): Promise<CommandRun> {
  const exec = ctx.exec;
  if (!exec) return runShell(ctx, script, options);
  const sandboxed = exec.sandbox ? sandboxScript(script) : undefined;
  if (sandboxed !== undefined) return runInSandbox(ctx, exec, sandboxed, options);
  return callService(exec, options.signal, () =>
    exec.executor.shell(
      {
        workspaceId: exec.workspaceId,
        ...(exec.userId ? { userId: exec.userId } : {}),
        projectRoot: ctx.projectRoot,
        cwd: ctx.cwd,
        pending: exec.pending,
        script,
        env: { ...ctx.shellEnv, ...options.env },
        timeoutMs: options.timeoutMs,
        // Only what pi's bash keeps comes back (the service counts the rest).
        outputTail: { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES },
      },
      options.signal,
      options.onWait && ((wait) => options.onWait?.(waitNotice(wait))),
    ),
  );
}

/**
 * Creates pi's `bash` tool. Each call runs in a fresh just-bash shell (no network; in the execution service
 * with node/js-exec, python3 and sqlite3, in process without them; bounded limits) with `cwd` = the tool's cwd; reads and writes are confined to the project.
 * Output is stdout followed by stderr, tail-truncated to 2000 lines / 50KB. A command the execution service queues
 * behind others' gets a partial result (`onUpdate`) with the wait notice (`waitNotice`) until it ends.
 * Errors (thrown, text includes the output): "Command exited with code N",
 * "Command timed out after N seconds", "Command aborted", invalid timeouts, missing working directory.
 */
export function createBashTool(
  ctx: ToolContext,
  options: BashToolOptions = {},
): AgentTool<BashToolInput, BashToolDetails | undefined> {
  return {
    name: "bash",
    label: "bash",
    description: bashToolDescription({
      runtimes: ctx.exec !== undefined,
      sandbox: ctx.exec?.sandbox ?? false,
    }),
    promptSnippet: "Execute bash commands (ls, grep, find, etc.)",
    promptGuidelines: ["You can inspect PI_* environment variables for current model and session details."],
    parameters: bashSchema,
    async execute(_toolCallId, { command, timeout }, signal, onUpdate) {
      const resolved = options.commandPrefix ? `${options.commandPrefix}\n${command}` : command;
      onUpdate?.({ content: [], details: undefined });
      const timeoutMs = resolveTimeoutMs(timeout);
      if (signal?.aborted) throw new Error("Command aborted");
      try {
        if ((await ctx.fs.stat(ctx.cwd)).kind !== "dir") throw new Error("not a directory");
      } catch {
        throw new Error(`Working directory does not exist: ${ctx.cwd}\nCannot execute bash commands.`);
      }
      const { output, exitCode, timedOut, killed, tail, sandboxed } = await runCommand(ctx, resolved, {
        signal,
        timeoutMs,
        env: options.env,
        // Queued behind others' commands in the execution service: the notice is the call's partial result.
        onWait: (notice) => onUpdate?.({ content: [{ type: "text", text: notice }], details: undefined }),
      });
      // Where it ran goes with the result, failed or not (the chat marks a sandboxed command).
      const where: BashToolDetails | undefined = sandboxed ? { sandbox: true } : undefined;
      const fail = (status: string) =>
        where
          ? new ToolError(appendStatus(formatOutput(output, "", tail).text, status), where)
          : new Error(appendStatus(formatOutput(output, "", tail).text, status));
      if (signal?.aborted) throw fail("Command aborted");
      if (killed) throw fail(killed.message);
      if (timedOut) throw fail(`Command timed out after ${timeout} seconds`);
      const { text, details } = formatOutput(output, "(no output)", tail);
      const final: AgentToolResult<BashToolDetails | undefined> = {
        content: [{ type: "text", text }],
        details: where ? { ...details, ...where } : details,
      };
      onUpdate?.(final);
      if (exitCode !== 0) {
        const message = appendStatus(text, `Command exited with code ${exitCode}`);
        throw where ? new ToolError(message, final.details) : new Error(message);
      }
      return final;
    },
  };
}
