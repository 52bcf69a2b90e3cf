/**
 * Strata's `python3` / `python`: CPython's command line over just-bash's `python3` (CPython on WebAssembly), so a
 * project's code runs where its files are. just-bash inlines a script into `/tmp/_jb_script.py` and serves the
 * project under `/host`, so `from helper import answer` next to `main.py` failed (`ModuleNotFoundError`) and
 * `python3 -m unittest discover -s tests` could not import its tests. This command runs every form through the
 * original command with a bootstrap: the project's top-level directory is linked at `/` (a path means the same
 * to the import system as to the redirected `open`), `sys.path[0]` is the script's own directory (a script) or the
 * working directory (`-m`, `-c`, stdin) as CPython sets it, `sys.argv` is CPython's, and a script runs as CPython
 * runs it (compiled under its absolute path in a fresh `__main__`: `__file__`, `if __name__ == "__main__"`). A traceback shows the user's frames
 * only. Node-only (registered by lib/exec/service/shell-runtimes.ts when the shell has the Python runtime).
 */
import { type Command, defineCommand, latin1FromBytes } from "just-bash";

/** Options CPython takes that change nothing here (buffering, bytecode files, environment, site): accepted. */
const IGNORED_FLAGS = new Set(["-u", "-B", "-E", "-s", "-S", "-q", "-O", "-OO", "-I", "-P"]);
/** Options taking a value, accepted and ignored (`-W ignore`, `-X utf8`). */
const IGNORED_WITH_VALUE = new Set(["-W", "-X"]);

/** What the command line asks for. */
export type PythonInvocation =
  | { kind: "script"; file: string; args: string[] }
  | { kind: "module"; module: string; args: string[] }
  | { kind: "code"; code: string; args: string[] }
  | { kind: "stdin"; args: string[] }
  | { kind: "original" };

/**
 * CPython's command line → what to run. `-c`/`-m` end the options (what follows is the program's), as does the
 * first argument not starting with `-` (the script) or `-` (stdin). `--version`, `--help` and anything unknown go
 * to the original command, which answers them.
 */
export function parsePythonArgs(args: readonly string[]): PythonInvocation {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-c" && i + 1 < args.length)
      return { kind: "code", code: args[i + 1], args: args.slice(i + 2) };
    if (a === "-m" && i + 1 < args.length)
      return { kind: "module", module: args[i + 1], args: args.slice(i + 2) };
    if (a === "-") return { kind: "stdin", args: args.slice(i + 1) };
    if (a === "--") return i + 1 < args.length ? script(args, i + 1) : { kind: "stdin", args: [] };
    if (!a.startsWith("-")) return script(args, i);
    if (IGNORED_FLAGS.has(a)) continue;
    if (IGNORED_WITH_VALUE.has(a)) {
      i++;
      continue;
    }
    return { kind: "original" };
  }
  return { kind: "stdin", args: [] };
}

const script = (args: readonly string[], at: number): PythonInvocation => ({
  kind: "script",
  file: args[at],
  args: args.slice(at + 1),
});

/** A Python string literal of `s` (JSON's escapes are Python's). */
const py = (s: string) => JSON.stringify(s);

/**
 * The bootstrap: link the top-level directories of `pathZero` and `cwd` (the project's) at `/` where the name is
 * free, then run the program with `sys.path[0]` = `pathZero` (a logical path) and `sys.argv` = `argv`, user frames
 * only in a traceback.
 */
export function bootstrap(pathZero: string, cwd: string, argv: readonly string[], run: string): string {
  return `import sys as _s, posix as _px, runpy as _rp, traceback as _tb
_linked = set()
for _n in (${[...new Set([pathZero, cwd].map(topName).filter(Boolean))].map(py).join(", ")},):
    try:
        _px.lstat('/' + _n)
    except OSError:
        try:
            _px.symlink('/host/' + _n, '/' + _n)
            _linked.add(_n)
        except OSError:
            pass
def _real(_p):
    return _p if _p.split('/')[1:2] and _p.split('/')[1] in _linked else '/host' + _p
_s.path[0:1] = [_real(${py(pathZero)})]
_s.argv = [${argv.map(py).join(", ")}]
try:
${run
  .split("\n")
  .map((l) => `    ${l}`)
  .join("\n")}
except SystemExit:
    raise
except BaseException as _e:
    _te = _tb.TracebackException.from_exception(_e)
    _te.stack = _tb.StackSummary.from_list([_f for _f in _te.stack if _f.filename != '/tmp/_jb_script.py' and not _f.filename.startswith('<frozen ')])
    print(''.join(_te.format()), end='', file=_s.stderr)
    raise SystemExit(1)`;
}

/** The first component of an absolute path (`/exec/app` → `exec`; `/` → ``). */
const topName = (p: string) => p.split("/")[1] ?? "";

/** The directory part of a POSIX path (`/a/b.py` → `/a`, `/b.py` → `/`). */
const dirname = (p: string) => p.slice(0, p.lastIndexOf("/")) || "/";

function makePythonCommand(name: "python3" | "python"): Command {
  return defineCommand(name, async (args, ctx) => {
    const run = parsePythonArgs(args);
    if (run.kind === "original" || !ctx.origCommand) return ctx.origCommand!(args);
    const cwd = ctx.cwd;
    if (run.kind === "script") {
      const file = ctx.fs.resolvePath(cwd, run.file);
      if (!(await ctx.fs.exists(file)))
        return {
          stdout: "",
          stderr: `${name}: can't open file ${py(file).replace(/^"|"$/g, "'")}: [Errno 2] No such file or directory\n`,
          exitCode: 2,
        };
      // As CPython runs a script: compiled under its absolute path (`__file__`, tracebacks), in a fresh `__main__`.
      const code = bootstrap(
        dirname(file),
        cwd,
        [run.file, ...run.args],
        [
          "import types as _ty",
          `_main = _ty.ModuleType('__main__'); _main.__file__ = ${py(file)}; _main.__builtins__ = __builtins__`,
          "_s.modules['__main__'] = _main",
          `with open(_real(${py(file)}), 'rb') as _fh: _src = _fh.read()`,
          `exec(compile(_src, ${py(file)}, 'exec'), _main.__dict__)`,
        ].join("\n"),
      );
      return ctx.origCommand(["-c", code]);
    }
    if (run.kind === "module") {
      const code = bootstrap(
        cwd,
        cwd,
        [run.module, ...run.args],
        `_rp.run_module(${py(run.module)}, run_name='__main__', alter_sys=True)`,
      );
      return ctx.origCommand(["-c", code]);
    }
    const source =
      run.kind === "code"
        ? run.code
        : new TextDecoder().decode(Uint8Array.from(latin1FromBytes(ctx.stdin), (c) => c.charCodeAt(0)));
    if (run.kind === "stdin" && source.trim() === "") return ctx.origCommand(args);
    const argv = run.kind === "code" ? ["-c", ...run.args] : ["-", ...run.args];
    const code = bootstrap(
      cwd,
      cwd,
      argv,
      `exec(compile(${py(source)}, ${py(run.kind === "code" ? "<string>" : "<stdin>")}, 'exec'), {'__name__': '__main__', '__builtins__': __builtins__})`,
    );
    return ctx.origCommand(["-c", code]);
  });
}

/** `python3` and `python` for a shell with the Python runtime. */
export const pythonCommands: Command[] = [makePythonCommand("python3"), makePythonCommand("python")];
