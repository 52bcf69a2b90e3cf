/**
 * `npm run db:migrate` (scripts/db-migrate.mjs), spawned as a process: a fresh Postgres database (created
 * here on the test server, DATABASE_URL without STRATA_DB_PROXY) gets every migration of db/migrations,
 * listed in order, and its tables; a second run applies nothing. The same for a fresh embedded PGlite
 * (STRATA_DIR = a temp dir), and through a running embedded server (its server.json). A missing database
 * fails in one line.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveDatabase } from "../../../scripts/local-db.mjs";
import { PG_HOST, PG_PORT } from "../../helpers/postgres";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const script = path.join(root, "scripts/db-migrate.mjs");
const ADMIN_URL = `postgres://postgres@${PG_HOST}:${PG_PORT}/postgres`;
const tags: string[] = JSON.parse(
  readFileSync(path.join(root, "db/migrations/meta/_journal.json"), "utf8"),
).entries.map((e: { tag: string }) => e.tag);
const name = `strata_migrate_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
const url = `postgres://postgres@${PG_HOST}:${PG_PORT}/${name}`;
const dirs: string[] = [];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function migrate(env: Record<string, string | undefined>): Promise<Run> {
  const full: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete full.STRATA_DB_PROXY;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete full[k];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script],
      { cwd: root, env: full, encoding: "utf8" },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          // Elapsed times vary: "in 123 ms" / "123 ms)" → "N ms".
          stdout: stdout.replace(/\d+ ms/g, "N ms"),
          stderr,
        }),
    );
  });
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>, database = "postgres"): Promise<T> {
  const c = new pg.Client({ connectionString: ADMIN_URL.replace(/\/postgres$/, `/${database}`) });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "strata-migrate-"));
  dirs.push(dir);
  return dir;
}

const applied = (target: string) =>
  `[strata] migrated ${target}: applied ${tags.length} of ${tags.length} migrations in N ms\n${tags.map((t) => `  ${t}\n`).join("")}`;
const upToDate = (target: string) =>
  `[strata] ${target} is up to date: nothing to apply (${tags.length} migrations, N ms)\n`;

beforeAll(() => admin((c) => c.query(`CREATE DATABASE ${name}`)));
afterAll(async () => {
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("npm run db:migrate", { timeout: 120_000 }, () => {
  it("migrates a fresh Postgres, listing each migration, then has nothing to apply", async () => {
    expect(tags.slice(0, 2)).toEqual(["0000_init", "0001_session_tree"]);
    const first = await migrate({ DATABASE_URL: url });
    expect(first).toEqual({ code: 0, stdout: applied(`${PG_HOST}:${PG_PORT}/${name}`), stderr: "" });
    const tables = await admin(async (c) => {
      const { rows } = await c.query(
        "select table_name from information_schema.tables where table_schema = 'public' and table_name = any($1) order by table_name",
        [["projects", "sessions", "session_entries", "users", "workspaces"]],
      );
      return rows.map((r) => r.table_name);
    }, name);
    expect(tables).toEqual(["projects", "session_entries", "sessions", "users", "workspaces"]);
    const recorded = await admin(
      async (c) => (await c.query("select count(*)::int as n from drizzle.__drizzle_migrations")).rows[0].n,
      name,
    );
    expect(recorded).toBe(tags.length);

    const second = await migrate({ DATABASE_URL: url });
    expect(second).toEqual({ code: 0, stdout: upToDate(`${PG_HOST}:${PG_PORT}/${name}`), stderr: "" });
  });

  it("fails in one line for a database that does not exist", async () => {
    const run = await migrate({ DATABASE_URL: `postgres://postgres@${PG_HOST}:${PG_PORT}/${name}_missing` });
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `[strata] db:migrate: database "${name}_missing" does not exist (Postgres 3D000)\n`,
    });
  });

  it("creates and migrates the embedded PGlite without starting the app, and through a running server", async () => {
    const dir = tempDir();
    const first = await migrate({ DATABASE_URL: undefined, STRATA_DIR: dir });
    expect(first).toEqual({ code: 0, stdout: applied(`${dir}/pgdata (embedded PGlite)`), stderr: "" });
    expect(existsSync(path.join(dir, "pgdata", "PG_VERSION"))).toBe(true);
    expect(existsSync(path.join(dir, "pgdata.lock"))).toBe(false);

    const served = await serveDatabase({ dir, publish: true });
    try {
      expect(served.migrations.applied).toEqual([]);
      const through = await migrate({ DATABASE_URL: undefined, STRATA_DIR: dir });
      expect(through).toEqual({
        code: 0,
        stdout: upToDate(`the embedded database of the running npm start (pid ${process.pid})`),
        stderr: "",
      });
    } finally {
      await served.close();
    }
  });
});
