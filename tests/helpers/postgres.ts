/**
 * Test databases on the real local Postgres (127.0.0.1:5432, trust auth), reached by the app's own
 * Neon driver through Strata's WebSocket proxy. Each test run gets fresh databases, dropped afterwards.
 *
 * A run migrates one **template** database once ({@link createTemplateDatabase}); every other database of the
 * run is a copy of it (`CREATE DATABASE … TEMPLATE`, ~0.1 s instead of running the migrations again), e.g. one per
 * Vitest worker (tests/global-setup.ts) and the ones a test file makes for itself ({@link createTestDatabase}
 * copies the template named in `STRATA_TEST_TEMPLATE_DB` when it is set).
 */
import pg from "pg";
import { startDbProxy } from "../../scripts/db-proxy.mjs";
import { runMigrations } from "../../scripts/migrate.mjs";

export const PG_HOST = process.env.STRATA_TEST_PG_HOST ?? "127.0.0.1";
export const PG_PORT = Number(process.env.STRATA_TEST_PG_PORT ?? 5432);
const ADMIN_URL = process.env.STRATA_TEST_ADMIN_URL ?? `postgres://postgres@${PG_HOST}:${PG_PORT}/postgres`;

export interface TestDatabase {
  /** Its name on the server. */
  name: string;
  url: string;
  /** The proxy's endpoint, "127.0.0.1:port/secret": the value for STRATA_DB_PROXY. */
  proxy: string;
  close(): Promise<void>;
}

/** A fresh database name: `prefix_<time>_<random>` (lower case, a valid unquoted identifier). */
function freshName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

const urlOf = (name: string) => `postgres://postgres@${PG_HOST}:${PG_PORT}/${name}`;

/** Run `statements` one after another on the server's `postgres` database. */
async function admin(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Drop database `name` (connections to it are terminated). */
export async function dropDatabase(name: string): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * A database `copy` of template `template` (no connection to the template may be open: Postgres refuses the
 * copy otherwise), reached through its own proxy. `close()` stops the proxy and drops the copy.
 */
export async function cloneDatabase(template: string, prefix = "strata_test"): Promise<TestDatabase> {
  const name = freshName(prefix);
  await admin(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const proxy = await startDbProxy({ target: `${PG_HOST}:${PG_PORT}` });
  return {
    name,
    url: urlOf(name),
    proxy: proxy.endpoint,
    async close() {
      await proxy.close();
      await dropDatabase(name);
    },
  };
}

/**
 * A migrated database to copy: created and migrated here, then marked `IS_TEMPLATE` so that no test connects to
 * it by mistake and copies of it are cheap. `close()` drops it.
 */
export async function createTemplateDatabase(
  prefix = "strata_tpl",
): Promise<{ name: string; close(): Promise<void> }> {
  const name = freshName(prefix);
  await admin(`CREATE DATABASE ${name}`);
  const proxy = await startDbProxy({ target: `${PG_HOST}:${PG_PORT}` });
  try {
    await runMigrations(urlOf(name), proxy.endpoint);
  } finally {
    await proxy.close();
  }
  await admin(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
  return {
    name,
    async close() {
      await admin(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
      await dropDatabase(name);
    },
  };
}

/**
 * A migrated database named `prefix_<random>` and a proxy in front of it: a copy of the run's template when
 * `STRATA_TEST_TEMPLATE_DB` names one (inside Vitest), else created and migrated here (the e2e stack, the bench).
 */
export async function createTestDatabase(prefix = "strata_test"): Promise<TestDatabase> {
  const template = process.env.STRATA_TEST_TEMPLATE_DB;
  if (template) return cloneDatabase(template, prefix);
  const name = freshName(prefix);
  await admin(`CREATE DATABASE ${name}`);
  const proxy = await startDbProxy({ target: `${PG_HOST}:${PG_PORT}` });
  const url = urlOf(name);
  await runMigrations(url, proxy.endpoint);
  return {
    name,
    url,
    proxy: proxy.endpoint,
    async close() {
      await proxy.close();
      await dropDatabase(name);
    },
  };
}
