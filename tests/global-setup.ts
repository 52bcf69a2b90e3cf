/** Vitest global setup: one fresh, migrated Postgres database and proxy for the whole run. */
import { createTestDatabase, type TestDatabase } from "./helpers/postgres";

let database: TestDatabase | undefined;

export async function setup(): Promise<void> {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.STRATA_DB_PROXY = database.proxy;
}

export async function teardown(): Promise<void> {
  await database?.close();
}
