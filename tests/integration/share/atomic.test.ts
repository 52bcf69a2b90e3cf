/**
 * Publish and fork are all-or-nothing (docs/sharing.md), proven on the real Postgres: a trigger makes a late statement
 * fail — the last shared file's INSERT of a publish, the final `UPDATE sessions SET leaf_id` of a fork — either with an
 * SQL error, or by terminating its own backend (a dropped connection: `pg_terminate_backend(pg_backend_pid())`), once
 * (the retry then succeeds) or every time (the retry budget runs out). Afterwards the database holds either the whole
 * share / fork or nothing of it, and the caller gets a 5xx JSON saying nothing was stored and what to do.
 * Each trigger fires only for this test's own user, so other test files running meanwhile are not affected.
 */
import { afterEach, describe, expect, it } from "vitest";
import { getSession } from "@/lib/session/store";
import { createTestUser, type TestUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import { routes, share } from "./helpers";
import { call, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

/** Triggers and functions made by a test, dropped after it. */
let cleanup: string[] = [];
let restoreEnv: (() => void) | undefined;
afterEach(async () => {
  for (const sql of cleanup.reverse()) await scope.query(sql);
  cleanup = [];
  restoreEnv?.();
  restoreEnv = undefined;
});

type Failure = { kind: "error" } | { kind: "drop"; times: number };

/**
 * Make `event` on `table` fail for rows where `condition` (PL/pgSQL over NEW) holds: raise an SQL error, or terminate
 * the statement's own backend the first `times` times (a sequence counts: it is not rolled back with the transaction).
 * @returns how many times it fired.
 */
async function inject(table: string, event: string, condition: string, failure: Failure) {
  const tag = `strata_test_${crypto.randomUUID().replaceAll("-", "")}`;
  await scope.query(`CREATE SEQUENCE ${tag}_fired`);
  const action =
    failure.kind === "error"
      ? `RAISE EXCEPTION 'injected failure on ${table}';`
      : `IF currval('${tag}_fired') <= ${failure.times} THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;`;
  await scope.query(
    `CREATE FUNCTION ${tag}() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF ${condition} THEN PERFORM nextval('${tag}_fired'); ${action} END IF;
       RETURN NEW;
     END $$`,
  );
  await scope.query(
    `CREATE TRIGGER ${tag} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${tag}()`,
  );
  cleanup.push(`DROP SEQUENCE ${tag}_fired`, `DROP FUNCTION ${tag}()`, `DROP TRIGGER ${tag} ON ${table}`);
  return async () => {
    const [row] = await scope.query<{ n: string; called: boolean }>(
      `SELECT last_value::text AS n, is_called AS called FROM ${tag}_fired`,
    );
    return row.called ? Number(row.n) : 0;
  };
}

/** What a publish of `sessionId` stored: its share rows and their files. */
async function sharesOf(sessionId: string) {
  const [row] = await scope.query<{ shares: number; files: number }>(
    `SELECT (SELECT count(*)::int FROM session_shares WHERE session_id = $1) AS shares,
            (SELECT count(*)::int FROM session_share_files f JOIN session_shares s ON s.id = f.share_id
              WHERE s.session_id = $1) AS files`,
    [sessionId],
  );
  return row;
}

/** What `user` owns in their personal workspace: projects, VFS rows, sessions and entries. */
async function holdingsOf(user: TestUser) {
  const [row] = await scope.query<{ projects: number; nodes: number; sessions: number; entries: number }>(
    `SELECT (SELECT count(*)::int FROM projects WHERE workspace_id = $1) AS projects,
            (SELECT count(*)::int FROM vfs_nodes WHERE workspace_id = $1) AS nodes,
            (SELECT count(*)::int FROM sessions WHERE user_id = $2) AS sessions,
            (SELECT count(*)::int FROM session_entries e JOIN sessions s ON s.id = e.session_id
              WHERE s.user_id = $2) AS entries`,
    [user.workspaceId, user.id],
  );
  return row;
}

const FILES = { "a.txt": "alpha\n", "b/c.txt": "gamma\n", "z-last.txt": "omega\n" };

/** An owner's session with one turn, previewed with its files; publishing is left to the test. */
async function previewed() {
  const f = await ownerProject(scope, FILES);
  await prompt(mock, f, "hello", []);
  const leafId = (await getSession(scope, f.session.id))!.leafId!;
  const p = await call(
    routes.preview.POST,
    f.owner,
    `/api/sessions/${f.session.id}/shares/preview`,
    { id: f.session.id },
    { json: { leafId, includeFiles: true } },
  );
  const { digest } = JSON.parse(p.body).preview as { digest: string };
  const publish = () =>
    call(
      routes.sessionShares.POST,
      f.owner,
      `/api/sessions/${f.session.id}/shares`,
      { id: f.session.id },
      { json: { leafId, includeFiles: true, digest } },
    );
  return { f, publish };
}

/** A published share (with files) and a fresh forker. */
async function forkable() {
  const f = await ownerProject(scope, FILES);
  await prompt(mock, f, "hello", []);
  const leafId = (await getSession(scope, f.session.id))!.leafId!;
  const { token, preview } = await share(f.owner, f.session.id, { leafId, includeFiles: true });
  const forker = await createTestUser("Atomic forker");
  const fork = () => call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { json: {} });
  return { token, preview, forker, fork };
}

const PUBLISH_FAILED = {
  code: "publish_failed",
  message:
    "The share could not be stored, so nothing was published (no link exists). Publish again; if it keeps failing, report it.",
};
const FORK_FAILED = {
  code: "fork_failed",
  message:
    "The fork could not be completed, so nothing was created (no project, no session). Fork the share again; if it keeps failing, report it.",
};
const NOTHING = { projects: 0, nodes: 0, sessions: 0, entries: 0 };
/** The 503 of a connection lost for the whole (1 s) retry budget: nothing written. */
const unavailable = (body: string) => {
  const { error } = JSON.parse(body) as { error: { code: string; message: string } };
  return [
    error.code,
    error.message.startsWith("The database could not be reached for 1 s ("),
    error.message.endsWith("The step that needed it wrote nothing; retry when the database is back."),
  ];
};

describe("publish is all or nothing", () => {
  it("a failing last file INSERT stores no share row and no file: 500 publish_failed", async () => {
    const { f, publish } = await previewed();
    const fired = await inject(
      "session_share_files",
      "INSERT",
      `NEW.path = 'z-last.txt' AND EXISTS (SELECT 1 FROM session_shares WHERE id = NEW.share_id AND created_by = '${f.owner.id}')`,
      { kind: "error" },
    );
    const res = await publish();
    expect([res.status, JSON.parse(res.body)]).toEqual([500, { error: PUBLISH_FAILED }]);
    expect(await fired()).toBe(1);
    expect(await sharesOf(f.session.id)).toEqual({ shares: 0, files: 0 });
    const listed = await call(routes.sessionShares.GET, f.owner, `/api/sessions/${f.session.id}/shares`, {
      id: f.session.id,
    });
    expect(JSON.parse(listed.body)).toEqual({ shares: [] });
  });

  it("a connection dropped at the last file INSERT is retried whole: exactly one share with every file", async () => {
    const { f, publish } = await previewed();
    const fired = await inject(
      "session_share_files",
      "INSERT",
      `NEW.path = 'z-last.txt' AND EXISTS (SELECT 1 FROM session_shares WHERE id = NEW.share_id AND created_by = '${f.owner.id}')`,
      { kind: "drop", times: 1 },
    );
    const res = await publish();
    expect(res.status).toBe(201);
    expect(await fired()).toBe(2);
    expect(await sharesOf(f.session.id)).toEqual({ shares: 1, files: 3 });
    const token = (JSON.parse(res.body).share.url as string).slice("/s/".length);
    const files = [];
    for (const path of Object.keys(FILES)) {
      const r = await call(routes.file.GET, null, `/api/s/${token}/files/${path}`, {
        token,
        path: path.split("/"),
      });
      files.push([r.status, r.body]);
    }
    expect(files).toEqual(Object.values(FILES).map((text) => [200, text]));
  });

  it("a connection lost for the whole retry budget stores nothing: 503 database_unavailable", async () => {
    const { f, publish } = await previewed();
    await inject(
      "session_share_files",
      "INSERT",
      `NEW.path = 'z-last.txt' AND EXISTS (SELECT 1 FROM session_shares WHERE id = NEW.share_id AND created_by = '${f.owner.id}')`,
      { kind: "drop", times: 1_000_000 },
    );
    restoreEnv = setEnv({ STRATA_DB_RETRY_MS: "1000" });
    const res = await publish();
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, "5"]);
    expect(unavailable(res.body)).toEqual(["database_unavailable", true, true]);
    expect(await sharesOf(f.session.id)).toEqual({ shares: 0, files: 0 });
  });
});

describe("fork is all or nothing", () => {
  it("a failing last step (the session's leaf UPDATE) leaves no project, file, git object or session: 500 fork_failed", async () => {
    const { forker, fork } = await forkable();
    expect(await holdingsOf(forker)).toEqual(NOTHING);
    const fired = await inject("sessions", "UPDATE", `NEW.user_id = '${forker.id}'`, { kind: "error" });
    const res = await fork();
    expect([res.status, JSON.parse(res.body)]).toEqual([500, { error: FORK_FAILED }]);
    expect(await fired()).toBe(1);
    expect(await holdingsOf(forker)).toEqual(NOTHING);
  });

  it("a connection dropped at the last step is retried whole: exactly one project and one complete session", async () => {
    const { forker, fork, preview } = await forkable();
    const fired = await inject("sessions", "UPDATE", `NEW.user_id = '${forker.id}'`, {
      kind: "drop",
      times: 1,
    });
    const res = await fork();
    expect(res.status).toBe(201);
    expect(await fired()).toBe(2);
    const { project, session } = JSON.parse(res.body) as {
      project: { id: string; rootPath: string };
      session: { id: string };
    };
    const held = await holdingsOf(forker);
    expect([held.projects, held.sessions, held.entries]).toEqual([1, 1, preview.snapshot.entries.length]);
    const files = await scope.query<{ path: string }>(
      `SELECT path FROM vfs_nodes WHERE workspace_id = $1 AND kind = 'file' AND NOT starts_with(path, $2)
       ORDER BY path COLLATE "C"`,
      [forker.workspaceId, `${project.rootPath}/.git/`],
    );
    expect(files.map((r) => r.path)).toEqual(Object.keys(FILES).map((p) => `${project.rootPath}/${p}`));
    const [row] = await scope.query<{ id: string; leaf_id: string }>(
      "SELECT id, leaf_id FROM sessions WHERE user_id = $1",
      [forker.id],
    );
    expect(row).toEqual({ id: session.id, leaf_id: preview.snapshot.entries.at(-1)!.id });
  });

  it("a connection lost for the whole retry budget leaves nothing: 503 database_unavailable", async () => {
    const { forker, fork } = await forkable();
    await inject("sessions", "UPDATE", `NEW.user_id = '${forker.id}'`, { kind: "drop", times: 1_000_000 });
    restoreEnv = setEnv({ STRATA_DB_RETRY_MS: "1000" });
    const res = await fork();
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, "5"]);
    expect(unavailable(res.body)).toEqual(["database_unavailable", true, true]);
    expect(await holdingsOf(forker)).toEqual(NOTHING);
  });
});
