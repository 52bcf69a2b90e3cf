// `strata user create --email <address> --name <name> [--password-stdin]`: create an account (with its personal
// workspace) in Strata's database, e.g. the first owner of a server in accounts mode. See docs/auth.md.
import crypto from "node:crypto";
import { parseArgs } from "node:util";
import { CliError, root, withDatabase, write } from "../lib/runtime.mjs";

const LIB = "lib/cli/user-commands.ts";

export const usage = `Usage:
  strata user create --email <address> --name <name> [--password-stdin]
      Create an account with its personal workspace in Strata's database (DATABASE_URL, else the embedded
      database of npm start). The password (at least 8 characters) is read from stdin with --password-stdin
      (its first line), else asked for twice in the terminal without echo. Prints the new user's id.`;

/** The first line of everything on stdin. */
async function readStdinLine() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0];
}

/** Ask `question` on the terminal and read one line without echoing it. @throws CliError without a terminal. */
function promptHidden(question) {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n" || ch === "\u0004") return finish();
        if (ch === "\u0003") return finish(new CliError("Cancelled", 130));
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.resume();
  });
}

/** The password from stdin (`--password-stdin`) or the terminal (asked twice). */
async function readPassword(fromStdin) {
  if (fromStdin) return readStdinLine();
  if (!process.stdin.isTTY)
    throw new CliError(
      "No terminal to ask for the password: pipe it in with --password-stdin (e.g. `printf '%s' \"$PASSWORD\" | npx strata user create … --password-stdin`)",
      2,
    );
  const first = await promptHidden("Password (at least 8 characters): ");
  const again = await promptHidden("Password again: ");
  if (first !== again) throw new CliError("The two passwords differ; run the command again");
  return first;
}

/**
 * The secret Better Auth is built with here: BETTER_AUTH_SECRET, else the embedded default's (.strata/secrets.json),
 * else a random one — sign-up signs no cookie the CLI keeps, so any value works.
 */
async function authSecret() {
  if (process.env.BETTER_AUTH_SECRET && process.env.BETTER_AUTH_SECRET.length >= 32)
    return process.env.BETTER_AUTH_SECRET;
  const local = await import("../../scripts/local-db.mjs");
  const stored = local.readSecrets(local.stateDir(root))?.BETTER_AUTH_SECRET;
  return typeof stored === "string" && stored.length >= 32
    ? stored
    : crypto.randomBytes(32).toString("base64");
}

async function createCommand(args) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      "password-stdin": { type: "boolean" },
    },
  });
  if (positionals.length > 0 || !values.email || values.name === undefined)
    throw new CliError(`user create needs --email and --name\n\n${usage}`, 2);
  const password = await readPassword(values["password-stdin"] === true);
  if (password.length < 8) throw new CliError("The password must have at least 8 characters");
  const secret = await authSecret();
  const user = await withDatabase(LIB, async (lib) => {
    try {
      return await lib.createUser({ email: values.email, name: values.name, password, secret });
    } catch (error) {
      if (error instanceof lib.CommandError) throw new CliError(error.message);
      throw error;
    }
  });
  await write(
    process.stderr,
    `Created the account ${user.email} (${user.name}) with a personal workspace; sign in at the server's /sign-in\n`,
  );
  await write(process.stdout, `${user.id}\n`);
}

/** Run `strata user <args…>`. */
export async function run(args) {
  const [sub, ...rest] = args;
  if (sub === "create") return createCommand(rest);
  if (sub === undefined || sub === "help" || sub === "--help" || sub === "-h") {
    await write(process.stdout, `${usage}\n`);
    return;
  }
  throw new CliError(`Unknown user command: ${sub}\n\n${usage}`, 2);
}
