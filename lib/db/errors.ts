/**
 * What can go wrong between Strata and Postgres, sorted into what a caller can act on:
 *
 * - {@link DbBusyError}: no connection could be had in time (this instance's connection limit stayed full
 *   for the whole wait, or Postgres answered SQLSTATE 53300 "too many connections"). Answered 503 with
 *   `Retry-After`; nothing was done.
 * - {@link DbUnavailableError}: the database stayed unreachable for the whole retry budget. Answered 503;
 *   the failed step wrote nothing (or, for {@link DbUnavailableError.commitUnknown}, it could not be checked).
 * - {@link isTransientDbError}: a dropped or refused connection that is worth retrying.
 *
 * Errors are recognised by `name` and fields, not `instanceof`: in Next's edge runtime every route bundle has its
 * own copy of these classes.
 */

import { StrataError } from "@/lib/errors/strata-error";

/** Seconds a client is told to wait (`Retry-After`) after a {@link DbBusyError}. */
export const DB_BUSY_RETRY_AFTER_S = 2;
/** Seconds a client is told to wait (`Retry-After`) after a {@link DbUnavailableError}. */
export const DB_UNAVAILABLE_RETRY_AFTER_S = 5;

/** No database connection could be had in time; nothing was done. HTTP 503 `database_busy`. */
export class DbBusyError extends StrataError {
  readonly retryAfterSeconds = DB_BUSY_RETRY_AFTER_S;
  constructor(message: string) {
    super(503, "database_busy", message, { headers: { "retry-after": String(DB_BUSY_RETRY_AFTER_S) } });
    this.name = "DbBusyError";
  }
}

/**
 * The database could not be reached for the whole retry budget. `commitUnknown`: the connection broke while a
 * COMMIT was on its way and the outcome could not be checked afterwards. HTTP 503 `database_unavailable`.
 */
export class DbUnavailableError extends StrataError {
  readonly retryAfterSeconds = DB_UNAVAILABLE_RETRY_AFTER_S;
  constructor(
    message: string,
    readonly commitUnknown = false,
  ) {
    super(503, "database_unavailable", message, {
      headers: { "retry-after": String(DB_UNAVAILABLE_RETRY_AFTER_S) },
    });
    this.name = "DbUnavailableError";
  }
}

/** The text of a {@link DbBusyError} after waiting `waitMs` for one of `max` connections. */
export function queueTimeoutMessage(max: number, waitMs: number): string {
  return `The database is busy: all ${max} connections of this server stayed in use for ${formatSeconds(waitMs)}. Nothing was changed; retry in a few seconds (the limit is STRATA_DB_MAX_CONNECTIONS).`;
}

/** The text of a {@link DbBusyError} for Postgres's SQLSTATE 53300 (`detail` = Postgres's own message). */
export function tooManyConnectionsMessage(detail: string): string {
  return `The database refused a new connection (${detail}). Nothing was changed; retry in a few seconds, or set STRATA_DB_MAX_CONNECTIONS below the database's connection limit.`;
}

/** The text of a {@link DbUnavailableError} after `budgetMs` of retries (`cause` = the last error's text). */
export function unavailableMessage(budgetMs: number, cause: string): string {
  return `The database could not be reached for ${formatSeconds(budgetMs)} (${cause}). The step that needed it wrote nothing; retry when the database is back.`;
}

/** The text of a {@link DbUnavailableError} whose COMMIT outcome stayed unknown for `budgetMs`. */
export function commitUnknownMessage(budgetMs: number, cause: string): string {
  return `The database connection broke while a change was being committed (${cause}), and the database could not be reached for ${formatSeconds(budgetMs)} to check whether it was stored. Reload to see what was stored before retrying.`;
}

/** The text of a {@link DbUnavailableError} when Postgres no longer knows a broken COMMIT's outcome. */
export function commitLostMessage(cause: string): string {
  return `The database connection broke while a change was being committed (${cause}), and the database no longer knows whether it was stored. Reload to see what was stored before retrying.`;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** SQLSTATEs of a connection that was closed or could not be used (57P0x: shutdown/crash/starting; 08xxx). */
const TRANSIENT_SQLSTATES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);
/** Socket error codes of a refused, reset or broken connection. */
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
/**
 * Texts of the Neon driver (a node-postgres port) and of WebSocket failures: a connection that ended or
 * errored, a refused or reset socket (the WebSocket `ErrorEvent` carries only a message), a proxy that answered
 * the upgrade with an error, a connect timeout — which undici's WebSocket reports as "Connection was closed before
 * it was established." when the driver gives up on a socket still connecting (nothing was sent: safe to retry).
 */
const TRANSIENT_TEXT =
  /Connection terminated|is not queryable|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|WebSocket|Unexpected server response|timeout expired|Query read timeout|Connection ended|Connection was closed before it was established/i;

function field(error: unknown, key: string): unknown {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>)[key] : undefined;
}

/** A text for any thrown value (a WebSocket `ErrorEvent` is not an `Error` but has a `message`). */
export function describeDbError(error: unknown): string {
  const message = field(error, "message");
  if (typeof message === "string" && message !== "") return message;
  return String(error);
}

/** True for SQLSTATE 53300 (`too_many_connections`: the server's or the role's connection limit). */
export function isTooManyConnections(error: unknown): boolean {
  return field(error, "code") === "53300";
}

/**
 * True when `error` is a dropped, refused or unusable connection (worth retrying with backoff): SQLSTATE
 * 57P01/57P02/57P03/08000/08001/08003/08006, a socket error code (ECONNREFUSED, ECONNRESET…), or the Neon
 * driver's / WebSocket's connection texts. Never for an SQL error of the statement itself, nor for 53300.
 */
export function isTransientDbError(error: unknown): boolean {
  if (error === null || error === undefined) return false;
  const name = field(error, "name");
  if (name === "DbBusyError" || name === "DbUnavailableError") return false;
  const code = field(error, "code");
  if (typeof code === "string") {
    if (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_CODES.has(code)) return true;
    // Any other SQLSTATE is an answer from a working server.
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  return TRANSIENT_TEXT.test(describeDbError(error));
}

/** True for a {@link DbBusyError} or {@link DbUnavailableError} (answered 503; never to be re-wrapped as a 4xx). */
export function isDbTrouble(error: unknown): error is DbBusyError | DbUnavailableError {
  const name = field(error, "name");
  return name === "DbBusyError" || name === "DbUnavailableError";
}
