/** Which database failures are retried, which statements may be repeated, and the texts users get. */
import { describe, expect, it } from "vitest";
import {
  DbBusyError,
  DbUnavailableError,
  isDbTrouble,
  isTooManyConnections,
  isTransientDbError,
  queueTimeoutMessage,
  tooManyConnectionsMessage,
  unavailableMessage,
} from "@/lib/db/errors";
import { dbSettings } from "@/lib/db/settings";
import { isRepeatable } from "@/lib/db/transaction";
import { setEnv } from "../../helpers/env";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isTransientDbError", () => {
  it("retries dropped, refused and unusable connections", () => {
    for (const e of [
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      { type: "error", message: "connect ECONNREFUSED 127.0.0.1:5432" }, // a WebSocket ErrorEvent
      // undici's WebSocket, when the driver's connect timeout closes a socket still connecting (seen in e2e: a 500)
      { type: "error", message: "Connection was closed before it was established." },
      withCode("read ECONNRESET", "ECONNRESET"),
      withCode("terminating connection due to administrator command", "57P01"),
      withCode("the database system is starting up", "57P03"),
      withCode("connection failure", "08006"),
    ])
      expect(isTransientDbError(e)).toBe(true);
  });

  it("never retries SQL errors, 53300 or its own give-up errors", () => {
    for (const e of [
      withCode('relation "x" does not exist', "42P01"),
      withCode('duplicate key value violates unique constraint "p"', "23505"),
      withCode('too many connections for role "r"', "53300"),
      new DbBusyError("busy"),
      new DbUnavailableError("down"),
      new Error("Session s not found"),
      null,
    ])
      expect(isTransientDbError(e)).toBe(false);
    expect(isTooManyConnections(withCode("sorry, too many clients already", "53300"))).toBe(true);
    expect(isDbTrouble(new DbBusyError("busy"))).toBe(true);
    expect(isDbTrouble(new Error("busy"))).toBe(false);
  });
});

describe("isRepeatable", () => {
  it("repeats reads only", () => {
    expect(isRepeatable("SELECT 1")).toBe(true);
    expect(isRepeatable("  with w AS (SELECT id FROM t) SELECT * FROM w")).toBe(true);
    expect(isRepeatable("SELECT id FROM sessions WHERE id = $1 FOR UPDATE")).toBe(true);
    expect(isRepeatable("UPDATE session_runs SET heartbeat_at = now()")).toBe(false);
    expect(isRepeatable("WITH s AS (UPDATE t SET a = 1 RETURNING id) SELECT * FROM s")).toBe(false);
    expect(isRepeatable("INSERT INTO t VALUES (1)")).toBe(false);
    expect(isRepeatable("SELECT nextval('s')")).toBe(false);
    expect(isRepeatable("DELETE FROM t")).toBe(false);
  });
});

describe("texts and settings", () => {
  it("says what happened, the limit and what to do", () => {
    expect(queueTimeoutMessage(20, 10_000)).toBe(
      "The database is busy: all 20 connections of this server stayed in use for 10 s. Nothing was changed; retry in a few seconds (the limit is STRATA_DB_MAX_CONNECTIONS).",
    );
    expect(tooManyConnectionsMessage('too many connections for role "strata"')).toBe(
      'The database refused a new connection (too many connections for role "strata"). Nothing was changed; retry in a few seconds, or set STRATA_DB_MAX_CONNECTIONS below the database\'s connection limit.',
    );
    expect(unavailableMessage(8000, "connect ECONNREFUSED 127.0.0.1:5432")).toBe(
      "The database could not be reached for 8 s (connect ECONNREFUSED 127.0.0.1:5432). The step that needed it wrote nothing; retry when the database is back.",
    );
  });

  it("reads the limits from the environment, refusing values out of range", () => {
    const restore = setEnv({
      STRATA_DB_MAX_CONNECTIONS: "",
      STRATA_DB_QUEUE_TIMEOUT_MS: "",
      STRATA_DB_RETRY_MS: "",
    });
    try {
      expect(dbSettings()).toEqual({ maxConnections: 20, queueTimeoutMs: 10_000, retryMs: 8000 });
      process.env.STRATA_DB_MAX_CONNECTIONS = "0";
      expect(() => dbSettings()).toThrow(
        'STRATA_DB_MAX_CONNECTIONS must be a whole number from 1 to 1000 (got "0").',
      );
      process.env.STRATA_DB_MAX_CONNECTIONS = "5";
      process.env.STRATA_DB_RETRY_MS = "0";
      expect(dbSettings()).toEqual({ maxConnections: 5, queueTimeoutMs: 10_000, retryMs: 0 });
    } finally {
      restore();
    }
  });
});
