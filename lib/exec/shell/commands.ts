/**
 * Shell commands that replace just-bash built-ins for a shell over `ProjectBashFs` (lib/vfs/bash-fs.ts):
 * `rm` and `ln` with GNU-like refusal reporting, `git` (lib/exec/shell/git/); the names of every command the shell has, and the note
 * added to a `command not found` answer.
 */
import { type Command, defineCommand, getCommandNames } from "just-bash/browser";
import { gitCommand } from "@/lib/exec/shell/git";

/** Parses `-abc` / `--long` boolean flags; `--` ends them. Returns the usage error as a result. */
function parseFlags(
  name: string,
  args: string[],
  short: Record<string, string>,
  long: Record<string, string>,
): { flags: Set<string>; operands: string[] } | { stdout: string; stderr: string; exitCode: number } {
  const flags = new Set<string>();
  const operands: string[] = [];
  let options = true;
  for (const arg of args) {
    if (!options || !arg.startsWith("-") || arg === "-") operands.push(arg);
    else if (arg === "--") options = false;
    else if (arg.startsWith("--")) {
      const flag = long[arg.slice(2)];
      if (!flag) return { stdout: "", stderr: `${name}: unrecognized option '${arg}'\n`, exitCode: 1 };
      flags.add(flag);
    } else {
      for (const c of arg.slice(1)) {
        const flag = short[c];
        if (!flag) return { stdout: "", stderr: `${name}: invalid option -- '${c}'\n`, exitCode: 1 };
        flags.add(flag);
      }
    }
  }
  return { flags, operands };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * just-bash's `rm`, except that `-f` (like GNU's) ignores only missing operands: a refusal (a write
 * into `.git` or outside the project) still fails with its message instead of exiting 0. Like GNU's,
 * it removes a symlink itself (just-bash's follows it: "Is a directory" for a link to a directory).
 */
const rmCommand = defineCommand("rm", async (args, ctx) => {
  const parsed = parseFlags(
    "rm",
    args,
    { r: "recursive", R: "recursive", f: "force", v: "verbose" },
    { recursive: "recursive", force: "force", verbose: "verbose" },
  );
  if (!("flags" in parsed)) return parsed;
  const { flags, operands } = parsed;
  const force = flags.has("force");
  if (operands.length === 0)
    return { stdout: "", stderr: force ? "" : "rm: missing operand\n", exitCode: force ? 0 : 1 };
  let stdout = "";
  let stderr = "";
  let exitCode = 0;
  for (const operand of operands) {
    try {
      const path = ctx.fs.resolvePath(ctx.cwd, operand);
      if ((await ctx.fs.lstat(path)).isDirectory && !flags.has("recursive")) {
        stderr += `rm: cannot remove '${operand}': Is a directory\n`;
        exitCode = 1;
        continue;
      }
      await ctx.fs.rm(path, { recursive: flags.has("recursive"), force });
      if (flags.has("verbose")) stdout += `removed '${operand}'\n`;
    } catch (error) {
      const text = message(error);
      const missing = text.includes("ENOENT") || text.includes("no such file");
      if (force && missing) continue;
      const reason = missing
        ? "No such file or directory"
        : text.includes("ENOTEMPTY") || text.includes("not empty")
          ? "Directory not empty"
          : text;
      stderr += `rm: cannot remove '${operand}': ${reason}\n`;
      exitCode = 1;
    }
  }
  return { stdout, stderr, exitCode };
});

/**
 * just-bash's `ln`, except that a refusal is reported verbatim: just-bash masks paths such as
 * `/etc/passwd` or `/tmp/x` in its message as `<path>`, hiding which symlink target was refused.
 */
const lnCommand = defineCommand("ln", async (args, ctx) => {
  const parsed = parseFlags(
    "ln",
    args,
    { s: "symbolic", f: "force", v: "verbose", n: "no-dereference" },
    { symbolic: "symbolic", force: "force", verbose: "verbose", "no-dereference": "no-dereference" },
  );
  if (!("flags" in parsed)) return parsed;
  const { flags, operands } = parsed;
  if (operands.length < 2) return { stdout: "", stderr: "ln: missing file operand\n", exitCode: 1 };
  if (operands.length > 2) return { stdout: "", stderr: `ln: extra operand '${operands[2]}'\n`, exitCode: 1 };
  const [target, name] = operands;
  const symbolic = flags.has("symbolic");
  const link = ctx.fs.resolvePath(ctx.cwd, name);
  const fail = (stderr: string) => ({ stdout: "", stderr, exitCode: 1 });
  // With -f the entry itself (lstat) is replaced: also a link whose target cannot be resolved (a loop).
  const present = flags.has("force")
    ? await ctx.fs.lstat(link).then(
        () => true,
        () => false,
      )
    : await ctx.fs.exists(link);
  if (present) {
    if (!flags.has("force"))
      return fail(`ln: failed to create ${symbolic ? "symbolic " : ""}link '${name}': File exists\n`);
    try {
      await ctx.fs.rm(link, { force: true });
    } catch {
      return fail(`ln: cannot remove '${name}': Permission denied\n`);
    }
  }
  try {
    if (symbolic) await ctx.fs.symlink(target, link);
    else {
      const existing = ctx.fs.resolvePath(ctx.cwd, target);
      if (!(await ctx.fs.exists(existing)))
        return fail(`ln: failed to access '${target}': No such file or directory\n`);
      await ctx.fs.link(existing, link);
    }
  } catch (error) {
    return fail(`ln: ${message(error)}\n`);
  }
  return { stdout: flags.has("verbose") ? `'${name}' -> '${target}'\n` : "", stderr: "", exitCode: 0 };
});

/** Commands that replace just-bash built-ins for a shell over `ProjectBashFs` (pass as `customCommands`). */
export const projectShellCommands: Command[] = [rmCommand, lnCommand, gitCommand];

/**
 * The heavy runtimes a shell may have, each only in the execution service's Node runner
 * (lib/exec/service/shell-runtimes.ts; just-bash's browser bundle has none of them): `javascript` = `js-exec` and
 * Strata's `node` (QuickJS), `python` = `python3` and `python` (CPython on WebAssembly), `sqlite` = `sqlite3` (sql.js).
 */
export interface ShellCapabilities {
  javascript?: boolean;
  python?: boolean;
  sqlite?: boolean;
}

/** Every runtime on: what the execution service's shell has. */
export const SERVICE_CAPABILITIES: Required<ShellCapabilities> = {
  javascript: true,
  python: true,
  sqlite: true,
};

/** The commands `capabilities` add to the shell, sorted: `js-exec`, `node`, `python`, `python3`, `sqlite3`. */
export function runtimeCommandNames(capabilities: ShellCapabilities): string[] {
  return [
    ...(capabilities.javascript ? ["js-exec", "node"] : []),
    ...(capabilities.python ? ["python", "python3"] : []),
    ...(capabilities.sqlite ? ["sqlite3"] : []),
  ];
}

/**
 * Every command Strata's shell runs, sorted by code unit: just-bash's registered commands (`getCommandNames()`,
 * its browser bundle: no python, sqlite3, tar, yq, xan, curl or js-exec) plus Strata's own (`rm`, `ln`, which
 * replace just-bash's, and `git`, lib/exec/shell/git/), plus the commands of `capabilities` (none by default: the
 * in-process shell). Shell builtins (`cd`, `export`, `test`, … — `help` lists them) are not commands.
 */
export function shellCommandNames(capabilities: ShellCapabilities = {}): string[] {
  const names = new Set([
    ...getCommandNames(),
    ...projectShellCommands.map((c) => c.name),
    ...runtimeCommandNames(capabilities),
  ]);
  return [...names].sort();
}

/** Commands named first in the not-found note (each is kept only if the shell really has it). */
const FEATURED = [
  "ls",
  "cat",
  "grep",
  "rg",
  "find",
  "sed",
  "awk",
  "jq",
  "diff",
  "mkdir",
  "cp",
  "mv",
  "rm",
  "git",
  "node",
  "python3",
  "sqlite3",
];

/**
 * The one line added after the first `bash: <cmd>: command not found` of a run, so neither the model nor the
 * user retries a tool the simulated shell cannot have. With the runtimes (`names` has `node`): `Strata's shell is
 * simulated: no npm, npx, pip, network or host programs. Available: ls, cat, grep, …, git, node, python3, sqlite3
 * and 68 more.`; without them (the in-process shell) it adds that node, python3 and sqlite3 need the execution
 * service. The full list is in the `bash` tool's description and the composer's shell hint.
 */
export function commandNotFoundNote(names: readonly string[] = shellCommandNames()): string {
  const featured = FEATURED.filter((n) => names.includes(n));
  const runtimes = names.includes("node")
    ? ""
    : "; node, python3 and sqlite3 need the execution service (npm start)";
  return `Strata's shell is simulated: no npm, npx, pip, network or host programs${runtimes}. Available: ${featured.join(", ")} and ${names.length - featured.length} more.`;
}

const NOT_FOUND = /^bash: ([^\n:]+): command not found$/gm;
/** just-bash's answer for a command its browser bundle leaves out (python3, sqlite3, tar, yq, xan). */
const NOT_IN_BROWSER =
  /^bash: ([^\n:]+): command not available in browser environments\. Exclude '[^\n]*' from your commands or use the Node\.js bundle\.$/gm;

/**
 * Rewrites a run's stderr so a missing command reads like bash's `bash: <cmd>: command not found` (just-bash's
 * "not available in browser environments" answers included) and inserts {@link commandNotFoundNote} on the line
 * after the first one. Only the shell's stderr is given (stdout, where `cat` puts a file, is never touched), and
 * only lines naming a command the shell does not have (`names`) count, so a program's own message is left as is.
 * The shell does not mark its own lines: a file holding such a line and sent to stderr (`cat f >&2`) is treated
 * like one. stderr without one is returned as is.
 */
export function explainMissingCommands(
  stderr: string,
  names: readonly string[] = shellCommandNames(),
): string {
  const missing = (cmd: string) => !names.includes(cmd);
  const rewritten = stderr.replace(NOT_IN_BROWSER, (line, cmd: string) =>
    missing(cmd) ? `bash: ${cmd}: command not found` : line,
  );
  for (const match of rewritten.matchAll(NOT_FOUND)) {
    if (!missing(match[1])) continue;
    const end = match.index + match[0].length;
    return `${rewritten.slice(0, end)}\n${commandNotFoundNote(names)}${rewritten.slice(end)}`;
  }
  return rewritten;
}
