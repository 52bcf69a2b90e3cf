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

/** The first line of everything on `stdin`. */
async function readStdinLine(stdin) {
  const chunks = [];
  for await (const chunk of stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0];
}

/** Ask `question` on the terminal (`ctx.stderr`, `ctx.stdin`) and read one line without echoing it. */
function promptHidden(ctx, question) {
  const { stdin, stderr } = ctx;
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write("\n");
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
    stderr.write(question);
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.on("data", onData);
    stdin.resume();
  });
}

/** The password from stdin (`--password-stdin`) or the terminal (asked twice). @throws CliError without a terminal. */
async function readPassword(ctx, fromStdin) {
  if (fromStdin) return readStdinLine(ctx.stdin);
  if (!ctx.stdin.isTTY)
    throw new CliError(
      "No terminal to ask for the password: pipe it in with --password-stdin (e.g. `printf '%s' \"$PASSWORD\" | npx strata user create … --password-stdin`)",
      2,
    );
  const first = await promptHidden(ctx, "Password (at least 8 characters): ");
  const again = await promptHidden(ctx, "Password again: ");
  if (first !== again) throw new CliError("The two passwords differ; run the command again");
  return first;
}

/**
 * The secret Better Auth is built with here: BETTER_AUTH_SECRET, else the embedded default's (.strata/secrets.json),
 * else a random one — sign-up signs no cookie the CLI keeps, so any value works.
 */
async function authSecret(env) {
  if (env.BETTER_AUTH_SECRET && env.BETTER_AUTH_SECRET.length >= 32) return env.BETTER_AUTH_SECRET;
  const local = await import("../../scripts/local-db.mjs");
  const stored = local.readSecrets(local.stateDir(root, env))?.BETTER_AUTH_SECRET;
  return typeof stored === "string" && stored.length >= 32
    ? stored
    : crypto.randomBytes(32).toString("base64");
}

async function createCommand(args, ctx) {
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
  const password = await readPassword(ctx, values["password-stdin"] === true);
  if (password.length < 8) throw new CliError("The password must have at least 8 characters");
  const secret = await authSecret(ctx.env);
  const user = await withDatabase(ctx, LIB, async (lib) => {
    try {
      return await lib.createUser({ email: values.email, name: values.name, password, secret, env: ctx.env });
    } catch (error) {
      if (error instanceof lib.CommandError) throw new CliError(error.message);
      throw error;
    }
  });
  await write(
    ctx.stderr,
    `Created the account ${user.email} (${user.name}) with a personal workspace; sign in at the server's /sign-in\n`,
  );
  await write(ctx.stdout, `${user.id}\n`);
}

/**
 * Run `strata user <args…>` with `ctx` (bin/lib/main.mjs `CliContext`: streams, environment, module loader).
 * @throws CliError: a usage error (exit 2), a failure (exit 1), or 130 when the password prompt is cancelled
 */
export async function run(args, ctx) {
  const [sub, ...rest] = args;
  if (sub === "create") return createCommand(rest, ctx);
  if (sub === undefined || sub === "help" || sub === "--help" || sub === "-h") {
    await write(ctx.stdout, `${usage}\n`);
    return;
  }
  throw new CliError(`Unknown user command: ${sub}\n\n${usage}`, 2);
}
