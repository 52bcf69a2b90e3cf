// The `strata` command line as a function: `runCli(argv, io)` dispatches to a command group of bin/commands/ and
// returns the exit code. bin/strata.mjs calls it with the process's streams and environment and exits; tests call
// it in process with their own (tests/helpers/cli.ts). Each command group exports `run(args, ctx)` and `usage`;
// add a group by adding it to COMMANDS. See docs/cli.md.
import { takeGlobalOptions } from "./remote.mjs";
import { CliError, firstLine, loadTs, write } from "./runtime.mjs";

const COMMANDS = {
  session: () => import("../commands/session.mjs"),
  preview: () => import("../commands/preview.mjs"),
  user: () => import("../commands/user.mjs"),
  secrets: () => import("../commands/secrets.mjs"),
};

const help = `Usage: strata <command> [...]

Commands:
  session import <file.jsonl> --project <id>   import a pi session file
  session export <sessionId> [-o <file>]       export a session as a pi JSONL file
  preview --text <input> [--dir .] [...]       print the context a prompt would send (no key, no database)
  user create --email <e> --name <n>           create an account (e.g. the first owner; password asked, or --password-stdin)
  secrets rotate                               re-encrypt every workspace secret under STRATA_SECRETS_KEY

Against a running server: --server <url> --token <personal access token> (or STRATA_SERVER, STRATA_TOKEN)
runs session import|export and \`preview --session-id <id>\` through its HTTP API as that token's user.

Environment: DATABASE_URL (Strata's Postgres, for the session commands; unset: the embedded database of
\`npm start\`, running or not); STRATA_DB_PROXY (its WebSocket proxy, host:port/secret; when unset, a local
proxy is started for a plain Postgres). See docs/cli.md.`;

/**
 * What a command runs with (the second argument of each group's `run(args, ctx)`): where it writes, what it
 * reads, its environment, and how it loads a TypeScript module of the repository.
 * @typedef {object} CliContext
 * @property {NodeJS.WritableStream} stdout
 * @property {NodeJS.WritableStream} stderr
 * @property {NodeJS.ReadableStream & { isTTY?: boolean, setRawMode?(raw: boolean): void }} stdin
 * @property {Record<string, string | undefined>} env the command's environment (its own copy when passed in)
 * @property {(relativePath: string) => Promise<any>} loadModule a TypeScript module by its path from the repo root
 */

/**
 * The context of one run: the process's own streams, `process.env` and tsx's loader unless given. An `env`
 * passed in is copied (`--server` / `--token` are put into the copy, never into the caller's object).
 * @param {Partial<CliContext>} io
 * @returns {CliContext}
 */
export function cliContext(io = {}) {
  return {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    stdin: io.stdin ?? process.stdin,
    env: io.env ? { ...io.env } : process.env,
    loadModule: io.loadModule ?? loadTs,
  };
}

/** Run the command of `argv`; a usage error or failure is thrown (a CliError, or any error). */
async function dispatch(argv, ctx) {
  const [command, ...args] = takeGlobalOptions(argv, ctx.env);
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    await write(ctx.stdout, `${help}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) throw new CliError(`Unknown command: ${command}\n\n${help}`, 2);
  await (await load()).run(args, ctx);
  return 0;
}

/**
 * Run `strata <argv…>` (the arguments after the program name) and return its exit code: 0 success, 1 failure,
 * 2 usage error, 130 cancelled at the password prompt. A failure is written to `stderr` as `strata: <message>`
 * (never a stack trace; `STRATA_DEBUG=1` in `env` prints the stack). Never rejects, unless writing to `stderr`
 * fails.
 *
 * In process (tests): lib/db reads its connection from `process.env`, so a database command sets
 * `DATABASE_URL` / `STRATA_DB_PROXY` there while it runs and restores them afterwards (`withDatabase`); two
 * commands on different databases must not run at once. Relative paths resolve against `process.cwd()`.
 * @param {string[]} argv
 * @param {Partial<CliContext>} [io] `stdout`, `stderr`, `stdin`, `env`, `loadModule` (defaults: this process's)
 * @returns {Promise<number>}
 */
export async function runCli(argv, io = {}) {
  const ctx = cliContext(io);
  try {
    return await dispatch(argv, ctx);
  } catch (error) {
    const known = error instanceof CliError || error?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    // Never a stack trace (STRATA_DEBUG=1 shows it): a known error's message, else its first line.
    const text =
      ctx.env.STRATA_DEBUG === "1"
        ? (error?.stack ?? String(error))
        : known
          ? error.message
          : firstLine(error);
    await write(ctx.stderr, `strata: ${text}\n`);
    return error instanceof CliError ? error.exitCode : known ? 2 : 1;
  }
}
