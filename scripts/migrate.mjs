// Apply db/migrations through the same Neon driver the app uses (Node side: `ws` for WebSocket).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client, Pool } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import ws from "ws";
import { applyDriverProxy, driverProxyAddress } from "../lib/db/proxy-address.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A Neon driver client class for Node whose instances use the `ws` package and, when `proxy` (the proxy's
 * endpoint "host:port/secret", as in STRATA_DB_PROXY) is given, the local proxy — each on its own `neonConfig`,
 * never the driver's global one, so the app's connections in the same process (the CLI, the tests) are untouched.
 * @param {string} [proxy]
 * @throws Error when `proxy` carries no secret.
 */
export function nodeClientClass(proxy) {
  if (proxy) driverProxyAddress(proxy); // fail here, not at the first connection
  return class NodeClient extends Client {
    constructor(config) {
      super(config);
      this.neonConfig.webSocketConstructor = ws;
      if (proxy) applyDriverProxy(this.neonConfig, proxy);
    }
  };
}

/** A one-connection Neon pool for Node on `url` (through the proxy endpoint `proxy`, if given); see {@link nodeClientClass}. */
export function nodePool(url, proxy) {
  const pool = new Pool({ connectionString: url, max: 1 });
  // The driver's Pool sets its own `Client` after pg's constructor (ignoring the `Client` option): replace it.
  pool.Client = nodeClientClass(proxy);
  return pool;
}

/** Run pending migrations against `url` (through the proxy endpoint `proxy`, if given). Returns the elapsed ms. */
export async function runMigrations(url, proxy) {
  return (await migrateDatabase(url, proxy)).ms;
}

/** The migrations of db/migrations in order: [{ tag, when }] (`when` = the journal's ms timestamp). */
export function migrationJournal() {
  const journal = JSON.parse(fs.readFileSync(path.join(root, "db/migrations/meta/_journal.json"), "utf8"));
  return journal.entries.map((entry) => ({ tag: entry.tag, when: Number(entry.when) }));
}

/**
 * Run pending migrations against `url` (through the proxy endpoint `proxy`, if given) and say which ran.
 * Drizzle applies every journal entry newer than the last row of drizzle.__drizzle_migrations, so the applied
 * ones are the entries newer than that row before the run.
 * @returns {Promise<{ applied: string[], total: number, ms: number }>} `applied` = the tags applied now, in
 *   order; `total` = migrations in db/migrations; `ms` = elapsed.
 */
export async function migrateDatabase(url, proxy) {
  const started = performance.now();
  const journal = migrationJournal();
  const pool = nodePool(url, proxy);
  try {
    let last = -1;
    try {
      const { rows } = await pool.query("select max(created_at) as last from drizzle.__drizzle_migrations");
      if (rows[0]?.last != null) last = Number(rows[0].last);
    } catch (error) {
      // 3F000 no schema "drizzle", 42P01 no table yet: a fresh database.
      if (error?.code !== "3F000" && error?.code !== "42P01") throw error;
    }
    await migrate(drizzle({ client: pool }), { migrationsFolder: path.join(root, "db/migrations") });
    const applied = journal.filter((entry) => entry.when > last).map((entry) => entry.tag);
    return { applied, total: journal.length, ms: performance.now() - started };
  } finally {
    await pool.end();
  }
}
