// Shared plumbing of the `strata` subcommands: loading Strata's TypeScript library through tsx, and the
// database connection (DATABASE_URL, with STRATA_DB_PROXY or a local proxy started here for a plain
// Postgres, as scripts/start.mjs does; without DATABASE_URL the embedded PGlite of `npm start`).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A failure the CLI reports as `strata: <message>` (exit 1), or a usage error (exit 2). */
export class CliError extends Error {
  constructor(message, exitCode = 1) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** Import a TypeScript module of the repo (path relative to the repo root) with tsx, `@/` paths resolved. */
export async function loadTs(relativePath) {
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(pathToFileURL(path.join(root, relativePath)).href, {
    parentURL: import.meta.url,
    tsconfig: path.join(root, "tsconfig.json"),
  });
}

/**
 * Where the session commands find the database when DATABASE_URL is unset: the running `npm start`'s
 * embedded PGlite (its .strata/server.json, while its pid is alive), else .strata/pgdata opened here for
 * the duration of the command (taking its single-owner lock, migrated as `npm start` would). The state
 * directory is `env.STRATA_DIR`, else `.strata` in the repository.
 * @returns {Promise<{ url: string, proxy: string, describe: string, close(): Promise<void> }>}
 * @throws CliError saying what to do when there is no embedded database or another process owns it
 */
async function embeddedDefault(env) {
  const local = await import("../../scripts/local-db.mjs");
  const dir = local.stateDir(root, env);
  const server = local.readServerInfo(dir);
  if (server) {
    return {
      url: server.url,
      proxy: server.proxy,
      describe: `the embedded database of the running npm start (pid ${server.pid})`,
      close: async () => undefined,
    };
  }
  const pgdata = path.join(dir, "pgdata");
  if (!fs.existsSync(path.join(pgdata, "PG_VERSION")))
    throw new CliError(
      `DATABASE_URL is not set and there is no embedded database in ${local.shown(pgdata)}: run \`npm start\` once to create it, or set DATABASE_URL to Strata's Postgres.`,
    );
  let db;
  try {
    db = await local.serveDatabase({ dir });
  } catch (error) {
    if (error instanceof local.LocalDbError) throw new CliError(error.message);
    throw new CliError(`Cannot open the embedded database (${local.shown(pgdata)}): ${firstLine(error)}`);
  }
  return {
    url: db.url,
    proxy: db.proxy.endpoint,
    describe: `the embedded database (${local.shown(pgdata)})`,
    close: () => db.close(),
  };
}

function hostPort(url) {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
}

/** The first line of an error's message (never its stack). */
export function firstLine(error) {
  return String(error?.message ?? error).split("\n")[0];
}

/** A failure of a session command as one line; database failures say what to do. */
function databaseError(error, where) {
  const message = firstLine(error);
  const code = error?.code;
  if (code === "42P01" || code === "3F000")
    return new CliError(`${where} is not migrated (${message}): run \`npm run db:migrate\`.`);
  // lib/db's DbUnavailableError (retried for STRATA_DB_RETRY_MS): its text says what happened and what to do.
  if (error?.name === "DbUnavailableError") return new CliError(`${where}: ${message}`);
  if (
    code === "ECONNREFUSED" ||
    /ECONNREFUSED|ECONNRESET|socket hang up|Unexpected server response/.test(message)
  )
    return new CliError(`Cannot reach ${where} (${message}). Is it running?`);
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code))
    return new CliError(`Database error from ${where}: ${message} (Postgres ${code})`);
  return new CliError(message);
}

/**
 * Set `values` in `process.env` (an undefined value deletes the name).
 * @returns {() => void} puts back what was there before
 */
function setProcessEnv(values) {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const assign = (entries) => {
    for (const [name, value] of Object.entries(entries)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  assign(values);
  return () => assign(saved);
}

/**
 * The database of `env` for a command: `{ url, proxy, where, closers }`. With DATABASE_URL: Neon hosts
 * directly, any other Postgres through `STRATA_DB_PROXY`, or through a proxy started here when unset.
 * Without it: the embedded default (see `embeddedDefault`). `closers` stop what was started here.
 * @throws CliError for an invalid DATABASE_URL, or what `embeddedDefault` throws
 */
async function resolveDatabase(env) {
  const url = env.DATABASE_URL;
  if (!url) {
    const embedded = await embeddedDefault(env);
    return {
      url: embedded.url,
      proxy: embedded.proxy,
      where: embedded.describe,
      closers: [() => embedded.close()],
    };
  }
  let host;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new CliError("DATABASE_URL is not a valid postgres:// URL");
  }
  const where = `the database at ${hostPort(url)}`;
  if (env.STRATA_DB_PROXY || /\.neon\.tech$/i.test(host))
    return { url, proxy: env.STRATA_DB_PROXY, where, closers: [] };
  const { startDbProxy } = await import("../../scripts/db-proxy.mjs");
  const proxy = await startDbProxy({ target: hostPort(url) });
  return { url, proxy: proxy.endpoint, where, closers: [() => proxy.close()] };
}

/**
 * Connect to Strata's database of `ctx.env` (see `resolveDatabase`) for the duration of `fn(lib)`, where `lib`
 * is the TypeScript module `modulePath` loaded by `ctx.loadModule` (it must re-export `setNodeWebSocket` from
 * lib/db/client). lib/db reads `DATABASE_URL` and `STRATA_DB_PROXY` from `process.env`: they are set there
 * while `fn` runs and put back afterwards. Errors of `fn` that are not CliErrors become one `CliError` line
 * (database errors say what to do).
 * @param {import("./main.mjs").CliContext} ctx
 * @param {string} modulePath relative to the repository root
 * @param {(lib: any) => Promise<T>} fn
 * @returns {Promise<T>} what `fn` returns
 * @template T
 */
export async function withDatabase(ctx, modulePath, fn) {
  const { url, proxy, where, closers } = await resolveDatabase(ctx.env);
  const restoreEnv = setProcessEnv({ DATABASE_URL: url, STRATA_DB_PROXY: proxy });
  // lib/db waits between connection retries on unref'd timers (right for the app; here nothing else may keep
  // the process alive, and Node would exit 0 in the middle of a retry): hold the event loop while `fn` runs.
  // Should a promise still never settle, fail with a message instead of that silent exit.
  const keepAlive = setInterval(() => undefined, 60_000);
  const silentEnd = () => {
    fs.writeSync(
      2,
      `strata: ${where} did not answer (the connection closed without a reply). Is it running?\n`,
    );
    process.exit(1);
  };
  process.once("beforeExit", silentEnd);
  try {
    const [lib, { default: ws }] = await Promise.all([ctx.loadModule(modulePath), import("ws")]);
    lib.setNodeWebSocket(ws);
    return await fn(lib);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw databaseError(error, where);
  } finally {
    clearInterval(keepAlive);
    process.off("beforeExit", silentEnd);
    for (const close of closers.reverse()) await close();
    restoreEnv();
  }
}

/** Write to a stream and wait until it is flushed. */
export function write(stream, text) {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}
