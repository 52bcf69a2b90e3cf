#!/usr/bin/env node
// `npm run db:migrate`: apply db/migrations without starting the app, and print what was applied.
// - DATABASE_URL set: that database (a plain Postgres through a local proxy started here; Neon directly).
// - unset: the embedded PGlite (.strata/pgdata, or $STRATA_DIR/pgdata) — through the running `npm start`
//   when there is one (.strata/server.json), else opened here (created when missing).
// Exit 0 on success; 1 with one `[strata] db:migrate: …` line on failure.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isAlive, readServerInfo, serveDatabase, shown, stateDir } from "./local-db.mjs";
import { migrateDatabase } from "./migrate.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** DATABASE_URL without its password, for messages. */
function describeUrl(url) {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return "DATABASE_URL";
  }
}

async function main() {
  const dir = stateDir(root);
  const url = process.env.DATABASE_URL || undefined;
  let target;
  let result;
  const server = url ? undefined : readServerInfo(dir);
  if (server && isAlive(server.pid)) {
    target = `the embedded database of the running npm start (pid ${server.pid})`;
    result = await migrateDatabase(server.url, server.proxy);
  } else {
    target = url ? describeUrl(url) : `${shown(path.join(dir, "pgdata"))} (embedded PGlite)`;
    const db = await serveDatabase({ dir, databaseUrl: url });
    result = db.migrations;
    await db.close();
  }
  const ms = Math.round(result.ms);
  if (result.applied.length === 0) {
    console.log(`[strata] ${target} is up to date: nothing to apply (${result.total} migrations, ${ms} ms)`);
  } else {
    console.log(
      `[strata] migrated ${target}: applied ${result.applied.length} of ${result.total} migrations in ${ms} ms`,
    );
    for (const tag of result.applied) console.log(`  ${tag}`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`[strata] db:migrate: ${oneLine(error)}`);
    process.exit(1);
  },
);

/** One line for an error: its message (and Postgres code), never a stack. */
function oneLine(error) {
  const message = String(error?.message ?? error).split("\n")[0];
  if (error?.code === "ECONNREFUSED" || /ECONNREFUSED/.test(message))
    return `cannot connect to the database (${message}); is it running?`;
  return error?.code && /^[0-9A-Z]{5}$/.test(error.code) ? `${message} (Postgres ${error.code})` : message;
}
