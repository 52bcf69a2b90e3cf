// Apply db/migrations through the same Neon driver the app uses (Node side: `ws` for WebSocket).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle } from "drizzle-orm/neon-serverless";
import { migrate } from "drizzle-orm/neon-serverless/migrator";
import ws from "ws";
import { driverProxyAddress } from "./db-proxy.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Configure the Neon driver for Node and, when `proxy` (the proxy's endpoint "host:port/secret", as in
 * STRATA_DB_PROXY) is given, the local proxy. Throws when `proxy` carries no secret.
 */
export function configureNeonForNode(proxy) {
  neonConfig.webSocketConstructor = ws;
  if (proxy) {
    const address = driverProxyAddress(proxy);
    neonConfig.wsProxy = () => address;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
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
  configureNeonForNode(proxy);
  const started = performance.now();
  const journal = migrationJournal();
  const pool = new Pool({ connectionString: url, max: 1 });
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
