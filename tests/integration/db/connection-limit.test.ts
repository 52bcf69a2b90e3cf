/**
 * 100 concurrent follow-ups (the real prompt route, real Postgres) against a role whose CONNECTION LIMIT is
 * 10: with the per-process limiter at or below the role's limit every follow-up is queued (they wait for a
 * connection); with the limiter above it, Postgres answers 53300 to the overflow, which gets 503
 * `database_busy` with Retry-After, never a 500. Either way nothing is lost: every follow-up is stored or
 * refused with 503.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { DbScope } from "@/lib/db/client";
import { DB_BUSY_RETRY_AFTER_S, queueTimeoutMessage, tooManyConnectionsMessage } from "@/lib/db/errors";
import { limiterStats } from "@/lib/db/limiter";
import { insertProject } from "@/lib/projects/projects";
import { startRun } from "@/lib/session/runs";
import { createSession } from "@/lib/session/store";
import { asUser, signedInUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import { PG_HOST, PG_PORT } from "../../helpers/postgres";
import { createLimitedDatabase, type LimitedDatabase } from "./trouble";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const ROLE_LIMIT = 10;
let db: LimitedDatabase;
let restoreEnv: () => void;
/** The limited database as the superuser (not counted against the role's limit). */
let admin: pg.Client;

beforeAll(async () => {
  db = await createLimitedDatabase(ROLE_LIMIT);
  // 100 prompts of one user in a second: over the default prompt rate limit (60/min), which is not what this tests.
  restoreEnv = setEnv({ DATABASE_URL: db.url, STRATA_DB_PROXY: db.proxy, STRATA_PROMPT_RATE_LIMIT: "1000" });
  admin = new pg.Client({
    connectionString: `postgres://postgres@${PG_HOST}:${PG_PORT}/${db.url.split("/").pop()}`,
  });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  restoreEnv();
  await db.close();
});

/** A session with a live prompt run, kept live (heartbeat through the superuser connection). */
async function sessionWithLiveRun() {
  const scope = new DbScope();
  const actor = await signedIn.actor();
  const project = await insertProject(scope, { workspaceId: actor.workspaceId, name: "limit", source: null });
  const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
  const runId = await startRun(scope, session.id);
  await scope.release();
  const beat = setInterval(
    () => void admin.query("UPDATE session_runs SET heartbeat_at = now() WHERE id = $1", [runId]),
    1000,
  );
  return { sessionId: session.id, stop: () => clearInterval(beat) };
}

const followUp = (sessionId: string, text: string) =>
  postPrompt(
    asUser(signedIn.user, `http://127.0.0.1/api/sessions/${sessionId}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text, streamingBehavior: "followUp" }),
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );

async function storm(sessionId: string, n: number) {
  const texts = Array.from({ length: n }, (_, i) => `follow-up ${i + 1}`);
  const responses = await Promise.all(texts.map((t) => followUp(sessionId, t)));
  const answers = await Promise.all(
    responses.map(async (r, i) => ({
      text: texts[i],
      status: r.status,
      retryAfter: r.headers.get("retry-after"),
      body: await r.json(),
    })),
  );
  const stored = await admin.query<{ input_text: string }>(
    "SELECT input_text FROM session_queue WHERE session_id = $1 ORDER BY seq",
    [sessionId],
  );
  return { answers, stored: stored.rows.map((r) => r.input_text) };
}

describe("100 concurrent follow-ups against a role limited to 10 connections", () => {
  it("limiter at the role's limit: all 100 wait their turn and are queued", async () => {
    // Waiting is what is tested, however long the turns take on a loaded machine: the queue timeout (10 s by
    // default; its own test is below) answered the last ~45 of them 503 database_busy when 10 rounds of requests
    // took longer than that under load.
    const restore = setEnv({
      STRATA_DB_MAX_CONNECTIONS: String(ROLE_LIMIT),
      STRATA_DB_QUEUE_TIMEOUT_MS: "600000",
    });
    const { sessionId, stop } = await sessionWithLiveRun();
    try {
      const { answers, stored } = await storm(sessionId, 100);
      // A refusal shows its body (why it was refused).
      expect(answers.map((a) => (a.status === 202 ? 202 : `${a.status} ${JSON.stringify(a.body)}`))).toEqual(
        Array(100).fill(202),
      );
      expect(answers[41].body).toEqual({
        queued: { id: expect.any(String), kind: "followUp", text: "follow-up 42" },
      });
      expect([...stored].sort()).toEqual(answers.map((a) => a.text).sort());
      expect(limiterStats()).toEqual({ max: ROLE_LIMIT, active: 0, waiting: 0, idle: 0 });
    } finally {
      stop();
      restore();
    }
  });

  it("limiter above the role's limit: the overflow gets 503 database_busy with Retry-After, no 500, nothing lost", async () => {
    const restore = setEnv({ STRATA_DB_MAX_CONNECTIONS: "40" });
    const { sessionId, stop } = await sessionWithLiveRun();
    try {
      const { answers, stored } = await storm(sessionId, 100);
      const accepted = answers.filter((a) => a.status === 202);
      const busy = answers.filter((a) => a.status === 503);
      expect(accepted.length + busy.length).toBe(100);
      expect(busy.length).toBeGreaterThan(0);
      for (const b of busy) {
        expect(b.retryAfter).toBe(String(DB_BUSY_RETRY_AFTER_S));
        expect(b.body).toEqual({
          error: {
            code: "database_busy",
            message: tooManyConnectionsMessage(`too many connections for role "${db.role}"`),
          },
        });
      }
      // Every accepted follow-up is stored, and nothing else.
      expect([...stored].sort()).toEqual(accepted.map((a) => a.text).sort());
      // The server is still fine: one more follow-up is queued.
      const after = await followUp(sessionId, "after the storm");
      expect(after.status).toBe(202);
    } finally {
      stop();
      restore();
    }
  });

  it("a wait longer than STRATA_DB_QUEUE_TIMEOUT_MS answers 503 with the limit; the slot holder is unaffected", async () => {
    const restore = setEnv({ STRATA_DB_MAX_CONNECTIONS: "1", STRATA_DB_QUEUE_TIMEOUT_MS: "300" });
    const { sessionId, stop } = await sessionWithLiveRun();
    const holder = new DbScope();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      // The one slot is held by a transaction in progress until this test lets it finish (a scope in a statement
      // never gives its connection up), so the follow-up's wait always outlasts its 300 ms.
      let holding!: () => void;
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const busy = holder.transaction(async (q) => {
        await q("SELECT 1");
        holding();
        await released;
        return q<{ v: number }>("SELECT 2 AS v");
      });
      await held;
      const refused = await followUp(sessionId, "no slot");
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe(String(DB_BUSY_RETRY_AFTER_S));
      expect(await refused.json()).toEqual({
        error: { code: "database_busy", message: queueTimeoutMessage(1, 300) },
      });
      expect(queueTimeoutMessage(1, 300)).toBe(
        "The database is busy: all 1 connections of this server stayed in use for 0.3 s. Nothing was changed; retry in a few seconds (the limit is STRATA_DB_MAX_CONNECTIONS).",
      );
      // The holder is unaffected: its transaction goes on and commits.
      release();
      expect(await busy).toEqual([{ v: 2 }]);
      const stored = await admin.query("SELECT 1 FROM session_queue WHERE session_id = $1", [sessionId]);
      expect(stored.rowCount).toBe(0);
    } finally {
      release();
      await holder.release();
      stop();
      restore();
    }
  });

  it("detach and release free each connection's slot exactly once", async () => {
    const restore = setEnv({ STRATA_DB_MAX_CONNECTIONS: "2" });
    const scope = new DbScope();
    try {
      await scope.query("SELECT 1");
      scope.detach(); // like a run before a model request
      await scope.query("SELECT 2"); // a new connection; the old one closes in the background
      await scope.release();
      scope.detach(); // nothing open: no-op
      await scope.release();
      // The detached connection's close ends in the background (the wait is only a hang detector).
      await vi.waitFor(() => expect(limiterStats()).toMatchObject({ active: 0, waiting: 0, idle: 0 }), {
        timeout: 20_000,
        interval: 50,
      });
      expect(await db.backends()).toBe(0);
    } finally {
      restore();
    }
  });

  it("a scope that keeps its connection while idle gives it up to a waiter (no deadlock at a limit of 1)", async () => {
    const restore = setEnv({ STRATA_DB_MAX_CONNECTIONS: "1", STRATA_DB_QUEUE_TIMEOUT_MS: "2000" });
    const first = new DbScope();
    const second = new DbScope();
    try {
      expect(await first.query<{ v: number }>("SELECT 1 AS v")).toEqual([{ v: 1 }]);
      // `first` still holds its connection (no release), like a run between two statements.
      expect(limiterStats()).toMatchObject({ active: 1, idle: 1 });
      expect(await second.query<{ v: number }>("SELECT 2 AS v")).toEqual([{ v: 2 }]);
      // …and `first` simply reopens one for its next statement.
      const [a, b] = await Promise.all([
        first.query<{ v: number }>("SELECT 3 AS v"),
        second.query<{ v: number }>("SELECT 4 AS v"),
      ]);
      expect([a, b]).toEqual([[{ v: 3 }], [{ v: 4 }]]);
    } finally {
      await first.release();
      await second.release();
      restore();
    }
    expect(limiterStats()).toMatchObject({ active: 0, waiting: 0 });
  });
});
