/**
 * Vitest global setup: one migrated template database for the run, and for each worker of the pool its own copy
 * of it plus an execution service (lib/exec/service) on that copy. A worker's test files find theirs through
 * `inject("strataWorkers")` in tests/setup-env.ts (indexed by `VITEST_POOL_ID`), which puts its `DATABASE_URL`,
 * `STRATA_DB_PROXY`, `STRATA_EXEC_URL` and `STRATA_EXEC_TOKEN` in the file's environment: files that run at the same
 * time never share a database, and no worker waits for migrations. Tools on a memory VFS still run in process.
 */
import type { TestProject } from "vitest/node";
import { type ExecServiceProcess, startExecService } from "../scripts/exec-service.mjs";
import { cloneDatabase, createTemplateDatabase, type TestDatabase } from "./helpers/postgres";

/** What one worker of the pool gets. */
export interface WorkerResources {
  DATABASE_URL: string;
  STRATA_DB_PROXY: string;
  STRATA_EXEC_URL: string;
  STRATA_EXEC_TOKEN: string;
  /** The run's template database (STRATA_TEST_TEMPLATE_DB): `createTestDatabase` copies it. */
  STRATA_TEST_TEMPLATE_DB: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    strataWorkers: WorkerResources[];
  }
}

let template: { name: string; close(): Promise<void> } | undefined;
const databases: TestDatabase[] = [];
const services: ExecServiceProcess[] = [];

export async function setup(project: TestProject): Promise<void> {
  template = await createTemplateDatabase();
  const workers = Math.max(1, project.config.maxWorkers);
  const resources: WorkerResources[] = [];
  for (let i = 1; i <= workers; i++) {
    const database = await cloneDatabase(template.name, `strata_test_w${i}`);
    databases.push(database);
    const env = { ...process.env, DATABASE_URL: database.url, STRATA_DB_PROXY: database.proxy };
    // Restarted (on the same port) if it crashes, as under `npm start`.
    const exec = await startExecService({ env: { ...env, STRATA_EXEC_WORKERS: "2" }, restart: true });
    services.push(exec);
    resources.push({
      DATABASE_URL: database.url,
      STRATA_DB_PROXY: database.proxy,
      STRATA_TEST_TEMPLATE_DB: template.name,
      ...exec.env,
    });
  }
  project.provide("strataWorkers", resources);
}

export async function teardown(): Promise<void> {
  await Promise.all(services.map((s) => s.close()));
  await Promise.all(databases.map((d) => d.close()));
  await template?.close();
}
