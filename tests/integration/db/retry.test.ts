/**
 * DbScope against a database that drops connections (a TCP relay between the DB proxy and the real
 * Postgres): reads and transactions are retried with backoff and applied exactly once, a COMMIT whose answer
 * was lost is checked with txid_status instead of being repeated, and a longer outage ends in a clear
 * DbUnavailableError.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CONNECT_TIMEOUT_MS, DbScope } from "@/lib/db/client";
import { DbUnavailableError } from "@/lib/db/errors";
import { limiterStats } from "@/lib/db/limiter";
import { setEnv } from "../../helpers/env";
import { isParse, isSimpleQuery, proxyThrough, startRelay, type TcpRelay } from "./trouble";

let relay: TcpRelay;
let proxy: { proxy: string; close(): Promise<void> };
let restoreEnv: () => void;
const table = `retry_probe_${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  relay = await startRelay();
  proxy = await proxyThrough(relay);
  restoreEnv = setEnv({ STRATA_DB_PROXY: proxy.proxy });
  const s = new DbScope();
  await s.query(`CREATE TABLE ${table} (id text PRIMARY KEY, n int NOT NULL)`);
  await s.release();
});
afterAll(async () => {
  const s = new DbScope();
  await s.query(`DROP TABLE ${table}`);
  await s.release();
  restoreEnv();
  await proxy.close();
  await relay.close();
});
let restoreRetry: (() => void) | undefined;
beforeEach(async () => {
  relay.inspect = () => "pass";
  relay.restore();
  // The tests below check that every slot of the connection limiter is free after them. The files of a worker share
  // the limiter (one module registry), so first wait until what an earlier file left running (a run finishing its
  // last write) has ended; a slot held for good is a leak of that file and fails here, after 60 s, saying so.
  await vi.waitFor(
    () =>
      expect(limiterStats(), "database slots still held by an earlier test file").toMatchObject({
        active: 0,
      }),
    { timeout: 60_000, interval: 50 },
  );
});
afterEach(() => {
  restoreRetry?.();
  restoreRetry = undefined;
});

async function rowsOf(id: string) {
  const s = new DbScope();
  try {
    return await s.query<{ id: string; n: number }>(`SELECT id, n FROM ${table} WHERE id = $1`, [id]);
  } finally {
    await s.release();
  }
}

describe("a dropped connection", () => {
  it("a read waits out a 3 s outage and answers", async () => {
    const scope = new DbScope();
    await scope.query("SELECT 1");
    relay.cut();
    setTimeout(() => relay.restore(), 3000);
    expect(await scope.query<{ v: number }>("SELECT 41 + 1 AS v")).toEqual([{ v: 42 }]);
    // It was tried (and refused) during the outage, and answered after it.
    expect(relay.refused).toBeGreaterThan(0);
    await scope.release();
    expect(limiterStats().active).toBe(0);
  });

  it("a transaction broken before COMMIT runs again and is stored once", async () => {
    const scope = new DbScope();
    let dropped = false;
    relay.inspect = (chunk) => {
      if (!dropped && isParse(chunk, `INSERT INTO ${table}`)) {
        dropped = true;
        return "drop";
      }
      return "pass";
    };
    let runs = 0;
    const result = await scope.transaction(async (q) => {
      runs++;
      await q(`INSERT INTO ${table} (id, n) VALUES ($1, $2)`, ["before-commit", runs]);
      return runs;
    });
    expect({ dropped, runs, result }).toEqual({ dropped: true, runs: 2, result: 2 });
    expect(await rowsOf("before-commit")).toEqual([{ id: "before-commit", n: 2 }]);
    await scope.release();
  });

  it("a COMMIT whose answer was lost is looked up (txid_status), not repeated", async () => {
    const scope = new DbScope();
    let dropped = false;
    relay.inspect = (chunk) => {
      if (!dropped && isSimpleQuery(chunk, "COMMIT")) {
        dropped = true;
        return "pass-then-drop";
      }
      return "pass";
    };
    let runs = 0;
    const result = await scope.transaction(async (q) => {
      runs++;
      await q(`INSERT INTO ${table} (id, n) VALUES ($1, $2)`, ["lost-commit", runs]);
      return `run ${runs}`;
    });
    expect({ dropped, runs, result }).toEqual({ dropped: true, runs: 1, result: "run 1" });
    expect(await rowsOf("lost-commit")).toEqual([{ id: "lost-commit", n: 1 }]);
    await scope.release();
  });

  it("a write outside a transaction whose answer was lost is applied once", async () => {
    const scope = new DbScope();
    let dropped = false;
    relay.inspect = (chunk) => {
      if (!dropped && isSimpleQuery(chunk, "COMMIT")) {
        dropped = true;
        return "pass-then-drop";
      }
      return "pass";
    };
    const rows = await scope.query<{ n: number }>(`INSERT INTO ${table} (id, n) VALUES ($1, 7) RETURNING n`, [
      "single-write",
    ]);
    expect({ dropped, rows }).toEqual({ dropped: true, rows: [{ n: 7 }] });
    expect(await rowsOf("single-write")).toEqual([{ id: "single-write", n: 7 }]);
    await scope.release();
  });
});

/** Block this process's event loop for `ms` (a busy server on a loaded machine). */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: no timer, socket or promise of this process runs meanwhile
  }
}

describe("opening a connection", () => {
  it("a stall of this process longer than the connect timeout does not fail the handshake", async () => {
    const before = relay.accepted;
    let stalled = false;
    relay.inspect = () => {
      // On the connection's first message (the startup packet), the whole process stops for longer than the
      // connect timeout; the answer is waiting when it resumes.
      if (!stalled) stall(CONNECT_TIMEOUT_MS + 1000);
      stalled = true;
      return "pass";
    };
    const scope = new DbScope();
    expect(await scope.query<{ v: number }>("SELECT 7 AS v")).toEqual([{ v: 7 }]);
    // Opened at the first try: no connection was closed and opened again.
    expect({ stalled, connections: relay.accepted - before }).toEqual({ stalled: true, connections: 1 });
    await scope.release();
  });

  it("a database that never answers the handshake fails after the connect timeout, with the cause", async () => {
    restoreRetry = setEnv({ STRATA_DB_RETRY_MS: "0" });
    relay.inspect = () => "hold";
    const scope = new DbScope();
    const error = await scope.query("SELECT 1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbUnavailableError);
    expect((error as DbUnavailableError).message).toBe(
      "The database could not be reached for 0 s (Connection timeout expired: no answer within 5 s). The step that needed it wrote nothing; retry when the database is back.",
    );
    relay.inspect = () => "pass";
    expect(await scope.query<{ v: number }>("SELECT 1 AS v")).toEqual([{ v: 1 }]);
    await scope.release();
    expect(limiterStats().active).toBe(0);
  });
});

describe("an outage longer than the retry budget", () => {
  it("a read ends in DbUnavailableError with the budget and the cause", async () => {
    restoreRetry = setEnv({ STRATA_DB_RETRY_MS: "300" });
    const scope = new DbScope();
    relay.cut();
    const error = await scope.query("SELECT 1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbUnavailableError);
    expect((error as DbUnavailableError).message).toBe(
      "The database could not be reached for 0.3 s (Connection terminated unexpectedly). The step that needed it wrote nothing; retry when the database is back.",
    );
    relay.restore();
    expect(await scope.query<{ v: number }>("SELECT 1 AS v")).toEqual([{ v: 1 }]);
    await scope.release();
    expect(limiterStats().active).toBe(0);
  });

  it("a lost COMMIT that cannot be checked says so; what was committed stays, once", async () => {
    restoreRetry = setEnv({ STRATA_DB_RETRY_MS: "500" });
    const scope = new DbScope();
    let dropped = false;
    relay.inspect = (chunk) => {
      if (!dropped && isSimpleQuery(chunk, "COMMIT")) {
        dropped = true;
        // Right after this COMMIT reached the server: the database goes away.
        setImmediate(() => relay.cut());
        return "pass-then-drop";
      }
      return "pass";
    };
    let runs = 0;
    const error = await scope
      .transaction(async (q) => {
        runs++;
        await q(`INSERT INTO ${table} (id, n) VALUES ($1, 1)`, ["unknown-commit"]);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbUnavailableError);
    expect((error as DbUnavailableError).commitUnknown).toBe(true);
    expect((error as DbUnavailableError).message).toBe(
      "The database connection broke while a change was being committed (Connection terminated unexpectedly), and the database could not be reached for 0.5 s to check whether it was stored. Reload to see what was stored before retrying.",
    );
    relay.restore();
    expect(runs).toBe(1);
    // The COMMIT reached the server before the database went away: its row is there (waited for, as the server
    // may still be finishing it; the wait is only a hang detector), once.
    await vi.waitFor(
      async () => expect(await rowsOf("unknown-commit")).toEqual([{ id: "unknown-commit", n: 1 }]),
      {
        timeout: 20_000,
        interval: 50,
      },
    );
    expect(runs).toBe(1);
    await scope.release();
  });
});
