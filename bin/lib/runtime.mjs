// Shared plumbing of the `strata` subcommands: loading Strata's TypeScript library through tsx, and the
// database connection (DATABASE_URL, with STRATA_DB_PROXY or a local proxy started here for a plain
// Postgres, as scripts/start.mjs does).
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

function hostPort(url) {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
}

/**
 * Connect to the database of `DATABASE_URL` for the duration of `fn(lib)`, where `lib` is the TypeScript
 * module `modulePath` (it must re-export `setNodeWebSocket` from lib/db/client). Neon hosts are reached
 * directly; any other Postgres through `STRATA_DB_PROXY`, or through a proxy started here when unset.
 */
export async function withDatabase(modulePath, fn) {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new CliError(
      "DATABASE_URL is not set. Point it at Strata's Postgres (and STRATA_DB_PROXY at its WebSocket proxy, or leave that unset to start one).",
    );
  let host;
  try {
    host = new URL(url).hostname;
  } catch {
    throw new CliError("DATABASE_URL is not a valid postgres:// URL");
  }
  let proxy;
  if (!process.env.STRATA_DB_PROXY && !/\.neon\.tech$/i.test(host)) {
    const { startDbProxy } = await import("../../scripts/db-proxy.mjs");
    proxy = await startDbProxy({ target: hostPort(url) });
    process.env.STRATA_DB_PROXY = proxy.endpoint;
  }
  try {
    const [lib, { default: ws }] = await Promise.all([loadTs(modulePath), import("ws")]);
    lib.setNodeWebSocket(ws);
    return await fn(lib);
  } finally {
    await proxy?.close();
  }
}

/** Write to a stream and wait until it is flushed. */
export function write(stream, text) {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}
