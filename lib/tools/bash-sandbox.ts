/**
 * Which bash commands go to the real sandbox (lib/exec/service/sandbox, `POST /v1/sandbox`) when the workspace
 * has it enabled (`ToolExec.sandbox`): a command whose first word the simulated shell lacks (npm, npx, pytest,
 * cargo, make, yarn, pnpm, go, …), or one written `sandbox <command>`. Everything else stays in the simulated
 * shell. Edge-safe (it only decides and calls the executor).
 */
import { SERVICE_CAPABILITIES, shellCommandNames } from "@/lib/exec/shell/commands";
import { callService, type ServiceRun } from "./exec-call";
import type { ToolContext, ToolExec } from "./types";

/** The sentence the bash tool's description gains when the sandbox is on (agreed with the description's owner). */
export const SANDBOX_DESCRIPTION_NOTE =
  "Commands the simulated shell lacks (npm, npx, pytest, cargo, make, …) run in an isolated Linux sandbox on a copy of the project's files, without network; files they change are written back.";

/** Shell builtins and keywords of just-bash: the simulated shell has them though no command lists them. */
const BUILTINS = new Set(
  ". : [ [[ alias bg break builtin case cd command continue declare dirs do done echo elif else esac eval exec exit export false fg fi for function getopts hash if in jobs kill let local popd printf pushd pwd read readonly return select set shift source test then time trap true type typeset ulimit umask unalias unset until wait while { } ! ( )".split(
    " ",
  ),
);

let known: Set<string> | undefined;

/** The first word of `command` after leading `NAME=value` assignments, or undefined for an empty command. */
export function firstWord(command: string): string | undefined {
  const words = command.trimStart().split(/\s+/);
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
  const word = words[i];
  return word ? word.replace(/[;&|()]+$/, "") || word : undefined;
}

/**
 * The script to run in the sandbox for `command`, or undefined when it stays in the simulated shell:
 * `sandbox <rest>` → `<rest>`; a first word the simulated shell lacks → the command unchanged.
 */
export function sandboxScript(command: string): string | undefined {
  const trimmed = command.trimStart();
  const prefixed = /^sandbox(?:\s+|$)/.exec(trimmed);
  if (prefixed) return trimmed.slice(prefixed[0].length);
  const word = firstWord(trimmed);
  if (!word || word.startsWith("#") || word.includes("/")) return undefined;
  // The service's shell: node, python3 and sqlite3 stay in it (the description says they run on QuickJS/WASM).
  known ??= new Set(shellCommandNames(SERVICE_CAPABILITIES));
  return known.has(word) || BUILTINS.has(word) ? undefined : command;
}

/**
 * Run `script` in the sandbox on a copy of the project's tree (the route's VFS flushed first, the changed paths
 * absorbed after, so the checkpointer commits them). Same result shape as `runCommand`.
 * @throws ExecUnavailableError (service down), ExecRequestError (e.g. 503: bubblewrap not installed — its
 *   message says what to do).
 */
export async function runInSandbox(
  ctx: ToolContext,
  exec: ToolExec,
  script: string,
  options: { signal?: AbortSignal; timeoutMs?: number; env?: Record<string, string> },
): Promise<ServiceRun> {
  if (!script.trim()) {
    const output = "sandbox: usage: sandbox <command> (runs it in the isolated Linux sandbox)\n";
    return { output, exitCode: 2, timedOut: false, aborted: false };
  }
  return callService(exec, options.signal, () =>
    exec.executor.sandbox(
      {
        workspaceId: exec.workspaceId,
        projectRoot: ctx.projectRoot,
        cwd: ctx.cwd,
        pending: exec.pending,
        command: script,
        env: { ...ctx.shellEnv, ...options.env },
        timeoutMs: options.timeoutMs,
      },
      options.signal,
    ),
  );
}
