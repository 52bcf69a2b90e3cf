/**
 * Which bash commands go to the real sandbox (lib/exec/service/sandbox, `POST /v1/sandbox`) when the workspace
 * has it enabled (`ToolExec.sandbox`): a command any of whose simple commands (`a && b`, `a | b`, `a; b`, lines)
 * starts with a program the simulated shell lacks (npm, npx, pytest, cargo, make, yarn, pnpm, go, …) or runs only as
 * an approximation (the language runtimes python/python3/pip, node, sqlite3: WASM/QuickJS builds without threads,
 * subprocesses or native modules), or one written `sandbox <command>`. Everything else stays in the simulated shell.
 * Edge-safe (it only decides and calls the executor).
 */
import { waitNotice } from "@/lib/exec/limits";
import { SERVICE_CAPABILITIES, shellCommandNames } from "@/lib/exec/shell/commands";
import type { CommandOptions } from "./bash";
import { callService, type ServiceRun } from "./exec-call";
import type { ToolContext, ToolExec } from "./types";

/** The sentence the bash tool's description gains when the sandbox is on (agreed with the description's owner). */
export const SANDBOX_DESCRIPTION_NOTE =
  "Commands that use a language runtime or a program the simulated shell lacks (python3, node, npm, npx, pytest, cargo, make, …) run in an isolated Linux sandbox on a copy of the project's files, without network; files they change are written back.";

/**
 * Programs the service's simulated shell has only as an approximation (WebAssembly/QuickJS builds: no threads, no
 * subprocesses, no native modules): with the sandbox on, a command using them runs there.
 */
const RUNTIMES = new Set(["python", "python3", "pip", "pip3", "node", "js-exec", "sqlite3"]);

/** Shell builtins and keywords of just-bash: the simulated shell has them though no command lists them. */
const BUILTINS = new Set(
  ". : [ [[ alias bg break builtin case cd command continue declare dirs do done echo elif else esac eval exec exit export false fg fi for function getopts hash if in jobs kill let local popd printf pushd pwd read readonly return select set shift source test then time trap true type typeset ulimit umask unalias unset until wait while { } ! ( )".split(
    " ",
  ),
);

let known: Set<string> | undefined;

/**
 * The simple commands of `script`: split at unquoted `;`, `&`, `|` (so `&&`, `||`), parentheses, braces and line
 * breaks; quotes ('…', "…") and backslash escapes are respected, so `echo "a; b"` is one command.
 */
function simpleCommands(script: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < script.length; i++) {
    const ch = script[i];
    if (quote) {
      current += ch;
      if (ch === "\\" && quote === '"') current += script[++i] ?? "";
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
    } else if (ch === "\\") {
      current += ch + (script[++i] ?? "");
    } else if (/[;&|(){}\n]/.test(ch)) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out;
}

/** Shell keywords that may start a simple command before the program it runs (`then python3 x.py`). */
const LEADING_KEYWORDS = new Set(["then", "do", "else", "elif", "if", "while", "until", "!", "time", "exec"]);

/**
 * Programs that run the program named after their own options (`env node x.js`, `command python3 -V`,
 * `timeout 60 npm test`), with how many operands they take before it (`timeout`'s duration, `nice -n`'s value).
 * Options taking a value: `env -u NAME`, `env -C DIR`, `nice -n N`, `timeout -s SIG`, `timeout -k DURATION`.
 */
const WRAPPERS: Record<string, { operands: number; valued: Set<string> }> = {
  env: { operands: 0, valued: new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]) },
  command: { operands: 0, valued: new Set() },
  builtin: { operands: 0, valued: new Set() },
  nohup: { operands: 0, valued: new Set() },
  nice: { operands: 0, valued: new Set(["-n", "--adjustment"]) },
  timeout: { operands: 1, valued: new Set(["-s", "--signal", "-k", "--kill-after"]) },
  xargs: { operands: 0, valued: new Set(["-n", "-P", "-I", "-L", "-d", "-E", "-s", "-a"]) },
};

/**
 * The program a simple command runs: its first word after leading keywords, `NAME=value` assignments and
 * {@link WRAPPERS} with their options (`then env -u X FOO=1 timeout 5 node t.js` → `node`); undefined when none.
 * Words are split at blanks (quotes inside a wrapper's options are not expected).
 */
export function programOf(command: string): string | undefined {
  const words = command.trim().split(/\s+/).filter(Boolean);
  let i = 0;
  for (;;) {
    while (i < words.length && (LEADING_KEYWORDS.has(words[i]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])))
      i++;
    const word = words[i]?.replace(/[;&|()]+$/, "");
    const wrapper = word === undefined ? undefined : WRAPPERS[word];
    if (!wrapper) return word || undefined;
    i++;
    while (i < words.length && words[i].startsWith("-") && words[i] !== "-") {
      if (words[i] === "--") {
        i++;
        break;
      }
      i += wrapper.valued.has(words[i]) ? 2 : 1;
    }
    i += wrapper.operands;
  }
}

/** Whether a simple command's program is a runtime ({@link RUNTIMES}) or a program the simulated shell lacks. */
function needsSandbox(command: string): boolean {
  const word = programOf(command);
  if (!word || word.startsWith("#") || word.includes("/")) return false;
  if (RUNTIMES.has(word)) return true;
  // The service's shell: its commands (git, grep, sed, …) and builtins stay in it.
  known ??= new Set(shellCommandNames(SERVICE_CAPABILITIES));
  return !known.has(word) && !BUILTINS.has(word);
}

/**
 * The script to run in the sandbox for `command`, or undefined when it stays in the simulated shell:
 * `sandbox <rest>` → `<rest>`; a command with a simple command that {@link needsSandbox} → the command unchanged
 * (`cd pkg && npm test`, `python3 -m unittest`).
 */
export function sandboxScript(command: string): string | undefined {
  const trimmed = command.trimStart();
  const prefixed = /^sandbox(?:\s+|$)/.exec(trimmed);
  if (prefixed) return trimmed.slice(prefixed[0].length);
  return simpleCommands(trimmed).some(needsSandbox) ? command : undefined;
}

/**
 * Run `script` in the sandbox on a copy of the project's tree (the route's VFS flushed first, the changed paths
 * absorbed after, so the checkpointer commits them). Same result shape as `runCommand`, with `sandboxed: true`.
 * @throws ExecUnavailableError (service down), ExecRequestError (e.g. 503: bubblewrap not installed — its
 *   message says what to do).
 */
export async function runInSandbox(
  ctx: ToolContext,
  exec: ToolExec,
  script: string,
  options: CommandOptions,
): Promise<ServiceRun> {
  if (!script.trim()) {
    const output = "sandbox: usage: sandbox <command> (runs it in the isolated Linux sandbox)\n";
    return { output, exitCode: 2, timedOut: false, aborted: false };
  }
  const run = await callService(exec, options.signal, () =>
    exec.executor.sandbox(
      {
        workspaceId: exec.workspaceId,
        ...(exec.userId ? { userId: exec.userId } : {}),
        projectRoot: ctx.projectRoot,
        cwd: ctx.cwd,
        pending: exec.pending,
        command: script,
        env: { ...ctx.shellEnv, ...options.env },
        timeoutMs: options.timeoutMs,
      },
      options.signal,
      options.onWait && ((wait) => options.onWait?.(waitNotice(wait))),
    ),
  );
  return { ...run, sandboxed: true };
}
