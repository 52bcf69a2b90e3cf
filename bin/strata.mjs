#!/usr/bin/env node
// The `strata` command line. Each command group is a module in bin/commands/ exporting `run(args)` and
// `usage`; add a group by adding it to COMMANDS. See docs/cli.md.
import { takeGlobalOptions } from "./lib/remote.mjs";
import { CliError, firstLine, write } from "./lib/runtime.mjs";

const COMMANDS = {
  session: () => import("./commands/session.mjs"),
  preview: () => import("./commands/preview.mjs"),
  user: () => import("./commands/user.mjs"),
  secrets: () => import("./commands/secrets.mjs"),
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

async function main(argv) {
  const [command, ...args] = takeGlobalOptions(argv);
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    await write(process.stdout, `${help}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) throw new CliError(`Unknown command: ${command}\n\n${help}`, 2);
  await (await load()).run(args);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error) => {
    const known = error instanceof CliError || error?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    // Never a stack trace (STRATA_DEBUG=1 shows it): a known error's message, else its first line.
    const text =
      process.env.STRATA_DEBUG === "1"
        ? (error?.stack ?? String(error))
        : known
          ? error.message
          : firstLine(error);
    await write(process.stderr, `strata: ${text}\n`);
    process.exit(error instanceof CliError ? error.exitCode : known ? 2 : 1);
  },
);
