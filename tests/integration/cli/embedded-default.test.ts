/**
 * `strata session import|export` without DATABASE_URL: against the embedded PGlite served exactly as
 * `npm start` serves it (scripts/local-db.mjs `serveDatabase({ publish: true })`: PGlite + socket + proxy +
 * server.json, without next), and, once that is stopped, by opening the PGlite directory itself. The state
 * dir is a temp dir (STRATA_DIR) so the repository's own .strata is never touched.
 *
 * The commands run in process (tests/helpers/cli.ts `runStrata`), except where the process boundary is the point
 * (`spawnStrata`, the real binary): the lock of .strata/pgdata held by another process (this one), and a published
 * server that never answers (the binary must stay alive through lib/db's retries on unref'd timers, then fail).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { getSession } from "@/lib/session/store";
import { type ServedDatabase, serveDatabase } from "../../../scripts/local-db.mjs";
import { type CliRun, envWithout, root, runStrata, spawnStrata } from "../../helpers/cli";

const fixturePath = path.join(root, "tests/fixtures/sessions/pi-tour.jsonl");
const fixture = readFileSync(fixturePath);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n$/;

let dir: string;
let out: string;
let served: ServedDatabase | undefined;
let projectId: string;
let secret: string;
/** A state dir whose server.json names a live pid (this test) whose proxy is gone. */
let unanswered: string;
/**
 * The spawned run against `unanswered`: it spends lib/db's 8 s retry budget waiting, so it is started before the
 * other cases (in `beforeAll`) and awaited by its own.
 */
let goneRun: Promise<CliRun>;
const saved = { url: process.env.DATABASE_URL, proxy: process.env.STRATA_DB_PROXY };

/** The environment of the CLI here: no DATABASE_URL / STRATA_DB_PROXY, its state dir = `stateDir`. */
const embeddedEnv = (stateDir: string) =>
  envWithout(/^(DATABASE_URL|STRATA_DB_PROXY)$/, { STRATA_DIR: stateDir });

/** The CLI in process with that environment. */
function strata(args: string[], stateDir = dir): Promise<CliRun> {
  return runStrata(args, { env: embeddedEnv(stateDir) });
}

/** The real binary with that environment. */
function spawned(args: string[], stateDir = dir): Promise<CliRun> {
  return spawnStrata(args, { env: embeddedEnv(stateDir) });
}

/** Run `fn` with the lib's database = the embedded one (this worker's DATABASE_URL is the test Postgres). */
async function inEmbedded<T>(db: ServedDatabase, fn: (scope: DbScope) => Promise<T>): Promise<T> {
  process.env.DATABASE_URL = db.url;
  process.env.STRATA_DB_PROXY = db.proxy!.endpoint;
  const scope = new DbScope();
  try {
    return await fn(scope);
  } finally {
    await scope.release();
    process.env.DATABASE_URL = saved.url;
    process.env.STRATA_DB_PROXY = saved.proxy;
  }
}

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  }).stdout as unknown as number;
}

beforeAll(async () => {
  unanswered = mkdtempSync(path.join(tmpdir(), "strata-embedded-empty-"));
  writeFileSync(
    path.join(unanswered, "server.json"),
    JSON.stringify({
      pid: process.pid,
      url: "postgres://postgres@127.0.0.1:1/postgres",
      proxy: "127.0.0.1:1/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    }),
  );
  goneRun = spawned(["session", "export", "00000000-0000-4000-8000-000000000000"], unanswered);
  dir = mkdtempSync(path.join(tmpdir(), "strata-embedded-"));
  out = mkdtempSync(path.join(tmpdir(), "strata-embedded-out-"));
  served = await serveDatabase({ dir, publish: true });
  secret = served.proxy!.secret;
  projectId = await inEmbedded(served, async (scope) => {
    const actor = await getLocalActor(scope);
    return (await insertProject(scope, { workspaceId: actor.workspaceId, name: "embedded", source: null }))
      .id;
  });
}, 120_000);
afterAll(async () => {
  await goneRun;
  rmSync(unanswered, { recursive: true, force: true });
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

// A spawned run loads the TypeScript library through tsx, and opening PGlite takes seconds on a busy machine.
describe("the CLI and the embedded default", { timeout: 120_000 }, () => {
  it("publishes .strata/server.json (0600) with the pid and the proxy endpoint while serving", () => {
    const file = path.join(dir, "server.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const info = JSON.parse(readFileSync(file, "utf8"));
    expect(info).toMatchObject({
      pid: process.pid,
      url: served!.url,
      proxy: served!.proxy!.endpoint,
      dataDir: path.join(dir, "pgdata"),
    });
    expect(readFileSync(path.join(dir, "pgdata.lock"), "utf8")).toBe(String(process.pid));
    expect(served!.migrations.applied).toHaveLength(served!.migrations.total);
  });

  it("imports and exports through the running server (server.json), never printing its secret", async () => {
    const imported = await strata(["session", "import", fixturePath, "--project", projectId]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(UUID);
    const sessionId = imported.stdout.trim();
    expect(imported.stderr).toBe(`Imported ${fixturePath} as session ${sessionId} (README tour)\n`);
    const row = await inEmbedded(served!, (scope) => getSession(scope, sessionId));
    expect(row).toMatchObject({ projectId, title: "README tour", leafId: "a0000016" });

    const exported = await strata(["session", "export", sessionId]);
    expect(exported.code).toBe(0);
    expect(Buffer.from(exported.stdout, "utf8").equals(fixture)).toBe(true);
    for (const run of [imported, exported]) {
      expect(run.stdout).not.toContain(secret);
      expect(run.stderr).not.toContain(secret);
    }
    // The CLI did not take the database over: the server still owns it.
    expect(readFileSync(path.join(dir, "pgdata.lock"), "utf8")).toBe(String(process.pid));
  });

  it("says in one line that the embedded database is busy when its owner published no server.json (spawned: the lock is another process's)", async () => {
    rmSync(path.join(dir, "server.json"));
    const run = await spawned(["session", "export", "00000000-0000-4000-8000-000000000000"]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `strata: ${dir}/pgdata is in use by process ${process.pid} (PGlite has one owner); stop that process first, or set DATABASE_URL to use another database\n`,
    });
  });

  it("opens .strata/pgdata itself when no server runs (a stale server.json is ignored), and releases it", async () => {
    const sessionId = await inEmbedded(served!, async (scope) => {
      const rows = await scope.query<{ id: string }>("select id from sessions where project_id = $1", [
        projectId,
      ]);
      return rows[0]!.id;
    });
    await served!.close();
    served = undefined;
    expect(existsSync(path.join(dir, "server.json"))).toBe(false);
    expect(existsSync(path.join(dir, "pgdata.lock"))).toBe(false);
    writeFileSync(
      path.join(dir, "server.json"),
      JSON.stringify({
        pid: Number(deadPid()),
        url: "postgres://postgres@127.0.0.1:1/postgres",
        proxy: "127.0.0.1:1/x",
      }),
    );

    const file = path.join(out, "again.jsonl");
    const exported = await strata(["session", "export", sessionId, "-o", file]);
    expect(exported).toEqual({ code: 0, stdout: "", stderr: `Wrote ${file}\n` });
    expect(readFileSync(file).equals(fixture)).toBe(true);
    const imported = await strata(["session", "import", file, "--project", projectId]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(UUID);
    expect(imported.stdout.trim()).not.toBe(sessionId);
    expect(existsSync(path.join(dir, "pgdata.lock"))).toBe(false);
  });

  it("says what to do when there is no embedded database", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "strata-embedded-empty-"));
    try {
      const none = await strata(["session", "export", "00000000-0000-4000-8000-000000000000"], empty);
      expect(none).toEqual({
        code: 1,
        stdout: "",
        stderr: `strata: DATABASE_URL is not set and there is no embedded database in ${empty}/pgdata: run \`npm start\` once to create it, or set DATABASE_URL to Strata's Postgres.\n`,
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("fails in one line when the published server does not answer (spawned: the process outlives lib/db's retries)", async () => {
    // Started in beforeAll: server.json of `unanswered` names a live pid (this test) whose proxy is gone.
    const gone = await goneRun;
    expect(gone.code).toBe(1);
    // One line, no stack: lib/db retries the connection for its budget (8 s), then gives up.
    expect(gone.stderr).toBe(
      `strata: the embedded database of the running npm start (pid ${process.pid}): The database could not be reached for 8 s (connect ECONNREFUSED 127.0.0.1:1). The step that needed it wrote nothing; retry when the database is back.\n`,
    );
    expect(gone.stderr).not.toContain("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  });
});
