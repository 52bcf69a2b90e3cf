/**
 * Test databases on the real local Postgres (127.0.0.1:5432, trust auth), reached by the app's own
 * Neon driver through Strata's WebSocket proxy. Each test run gets a fresh database, dropped afterwards.
 */
import pg from "pg";
import { startDbProxy } from "../../scripts/db-proxy.mjs";
import { runMigrations } from "../../scripts/migrate.mjs";

export const PG_HOST = process.env.STRATA_TEST_PG_HOST ?? "127.0.0.1";
export const PG_PORT = Number(process.env.STRATA_TEST_PG_PORT ?? 5432);
const ADMIN_URL = process.env.STRATA_TEST_ADMIN_URL ?? `postgres://postgres@${PG_HOST}:${PG_PORT}/postgres`;

export interface TestDatabase {
  url: string;
  /** The proxy's endpoint, "127.0.0.1:port/secret": the value for STRATA_DB_PROXY. */
  proxy: string;
  close(): Promise<void>;
}

/** Create a migrated database named `prefix_<random>` and a proxy in front of it. */
export async function createTestDatabase(prefix = "strata_test"): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const proxy = await startDbProxy({ target: `${PG_HOST}:${PG_PORT}` });
  const url = `postgres://postgres@${PG_HOST}:${PG_PORT}/${name}`;
  await runMigrations(url, proxy.endpoint);
  return {
    url,
    proxy: proxy.endpoint,
    async close() {
      await proxy.close();
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
