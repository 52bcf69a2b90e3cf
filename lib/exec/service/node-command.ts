/**
 * Strata's `node`: Node's command line over just-bash's `js-exec` (JavaScript on QuickJS compiled to WebAssembly),
 * replacing just-bash's `node` stub ("this sandbox uses js-exec instead of node"). It takes the options a model
 * or a user reaches for — `-e`/`--eval CODE`, `-p`/`--print CODE`, `--input-type=module|commonjs`, a script
 * FILE, `-` or piped stdin, `--` — passes the arguments after them to the script (`process.argv` has Node's
 * shape: see lib/exec/service/js-bootstrap.ts), and refuses every other option with node's `bad option` line plus what it does
 * take (exit 9, node's code for an invalid option). `-v`/`--version` says it is QuickJS, not Node.js.
 * Node-only (registered by lib/exec/service/shell-runtimes.ts when the shell has the JavaScript runtime).
 */
import { type Command, defineCommand, latin1FromBytes } from "just-bash";
import { bundleCommonJs, requiresFiles } from "./cjs-bundle";

/** `node --version`: what answers, honestly (js-exec reports `process.version` v22.0.0 for compatibility). */
export const NODE_VERSION_TEXT = "v22.0.0-quickjs (js-exec: QuickJS compiled to WebAssembly; not Node.js)\n";

const ACCEPTS =
  "Strata's node is js-exec on QuickJS: it takes -e/--eval CODE, -p/--print CODE, --input-type=module, -v/--version, -h/--help, a script file (or - for stdin) and its arguments.";

/** `node --help`. */
export const NODE_HELP_TEXT = `Usage: node [options] [ script.js | -e "script" | - ] [arguments]

${ACCEPTS}
JavaScript runs on QuickJS with Node-style require/import of fs, path, child_process, process, os, url,
assert, util, events, buffer, stream, string_decoder and querystring (run js-exec --help for the details).
There are no npm packages and no network; I/O is synchronous; timers run on a virtual clock, without waiting.
`;

type Parsed =
  | { kind: "text"; stdout: string; stderr: string; exitCode: number }
  | { kind: "run"; args: string[] }
  | { kind: "stdin"; module: boolean; args: string[] };

const fail = (message: string): Parsed => ({
  kind: "text",
  stdout: "",
  stderr: `node: ${message}\n${ACCEPTS}\n`,
  exitCode: 9,
});

/**
 * Node's command line → js-exec's arguments (`run`), the script on stdin with its arguments (`stdin`: no script
 * file and no code, or `-`), or the text to answer (`--version`, `--help`, a refused option).
 */
export function parseNodeArgs(argv: readonly string[]): Parsed {
  let module = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const flags = module ? ["-m"] : [];
    if (arg === "-v" || arg === "--version")
      return { kind: "text", stdout: NODE_VERSION_TEXT, stderr: "", exitCode: 0 };
    if (arg === "-h" || arg === "--help")
      return { kind: "text", stdout: NODE_HELP_TEXT, stderr: "", exitCode: 0 };
    if (arg === "--input-type=module") module = true;
    else if (arg === "--input-type=commonjs") module = false;
    else if (/^--(eval|print)=/.test(arg)) {
      const eq = arg.indexOf("=");
      return parseNodeArgs([...argv.slice(0, i), arg.slice(0, eq), arg.slice(eq + 1), ...argv.slice(i + 1)]);
    } else if (arg === "-e" || arg === "--eval" || arg === "-p" || arg === "--print") {
      if (i + 1 >= argv.length) return fail(`${arg} requires an argument`);
      const code = argv[i + 1];
      // QuickJS has no eval here: -p prints the value of the code taken as one expression.
      const source = arg === "-p" || arg === "--print" ? `console.log((\n${code}\n));` : code;
      return { kind: "run", args: [...flags, "-c", source, ...argv.slice(i + 2)] };
    } else if (arg === "-") return { kind: "stdin", module, args: argv.slice(i + 1) };
    else if (arg === "--") {
      if (i + 1 >= argv.length) return { kind: "stdin", module, args: [] };
      return { kind: "run", args: [...flags, "--", ...argv.slice(i + 1)] };
    } else if (arg.startsWith("-")) return fail(`bad option: ${arg}`);
    else return { kind: "run", args: [...flags, "--", ...argv.slice(i)] };
  }
  return { kind: "stdin", module, args: [] };
}

/** A static `import … from`/`import "…"` or `export` at the start of a line: ES module syntax. */
const ESM_SYNTAX = /^[ \t]*(?:import[ \t]*(?:[\w*{$]|["'])|export[ \t])/m;

/**
 * Node 22's syntax detection for a script FILE (`["--", file, …]` without `-m`): a `.js` file written as an ES
 * module runs as one (js-exec detects only `.mjs`/`.ts` and top-level `await`). An unreadable file is left to
 * js-exec, which says so.
 */
async function isEsmFile(args: readonly string[], ctx: Parameters<Command["execute"]>[1]): Promise<boolean> {
  if (args[0] !== "--" || args[1] === undefined) return false;
  try {
    return ESM_SYNTAX.test(await ctx.fs.readFile(ctx.fs.resolvePath(ctx.cwd, args[1])));
  } catch {
    return false;
  }
}

/**
 * A CommonJS script FILE (`["--", file, …]`) that requires the project's own files: the program holding its graph
 * (lib/exec/service/cjs-bundle.ts), else null (js-exec runs the file as it is and says what it cannot find).
 */
async function commonJsBundle(
  args: readonly string[],
  ctx: Parameters<Command["execute"]>[1],
): Promise<string | null> {
  if (args[0] !== "--" || args[1] === undefined) return null;
  const file = ctx.fs.resolvePath(ctx.cwd, args[1]);
  try {
    if (!requiresFiles(await ctx.fs.readFile(file))) return null;
    return await bundleCommonJs(
      { readFile: (p) => ctx.fs.readFile(p), stat: async (p) => ctx.fs.stat(p) },
      file,
    );
  } catch {
    return null;
  }
}

/** `node` for a shell with the JavaScript runtime: runs js-exec with the parsed arguments and the same stdin. */
export const nodeCommand: Command = defineCommand("node", async (args, ctx) => {
  const parsed = parseNodeArgs(args);
  if (parsed.kind === "text") return parsed;
  if (!ctx.exec)
    return { stdout: "", stderr: "node: js-exec is not reachable from this shell\n", exitCode: 1 };
  const stdin = latin1FromBytes(ctx.stdin);
  if (parsed.kind === "run") {
    const args = (await isEsmFile(parsed.args, ctx)) ? ["-m", ...parsed.args] : parsed.args;
    const bundle = await commonJsBundle(args, ctx);
    const run = bundle ? ["-c", bundle, ...args.slice(2)] : args;
    return ctx.exec("js-exec", { cwd: ctx.cwd, args: run, stdin, stdinKind: "bytes", signal: ctx.signal });
  }
  // The script is stdin (js-exec would take a following argument for a file): it runs as -c code with the
  // arguments. Nothing on stdin: Node runs an empty program (no REPL without a terminal).
  if (stdin === "") return { stdout: "", stderr: "", exitCode: 0 };
  const code = new TextDecoder().decode(Uint8Array.from(stdin, (c) => c.charCodeAt(0)));
  const flags = parsed.module ? ["-m"] : [];
  return ctx.exec("js-exec", {
    cwd: ctx.cwd,
    args: [...flags, "-c", code, ...parsed.args],
    signal: ctx.signal,
  });
});
