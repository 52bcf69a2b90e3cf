/**
 * Vitest global setup: one fresh, migrated Postgres database and proxy for the whole run, and one execution
 * service (lib/exec/service) on it; its STRATA_EXEC_URL/STRATA_EXEC_TOKEN are in every test's environment, so a
 * session runtime on Postgres runs shell commands through it (tools on a memory VFS still run in process).
 */
import { type ExecServiceProcess, startExecService } from "../scripts/exec-service.mjs";
import { createTestDatabase, type TestDatabase } from "./helpers/postgres";

let database: TestDatabase | undefined;
let exec: ExecServiceProcess | undefined;

export async function setup(): Promise<void> {
  database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.STRATA_DB_PROXY = database.proxy;
  // Restarted (on the same port) if it crashes, as under `npm start`.
  exec = await startExecService({ env: { ...process.env, STRATA_EXEC_WORKERS: "2" }, restart: true });
  Object.assign(process.env, exec.env);
}

export async function teardown(): Promise<void> {
  await exec?.close();
  await database?.close();
}
