/**
 * Statements and transactions that survive a dropped connection, each applied exactly once:
 *
 * - A read ({@link isRepeatable}) is simply repeated on a new connection.
 * - A transaction is begun together with `txid_current()` (one round trip: `BEGIN; SELECT txid_current()`).
 *   When the connection breaks before COMMIT was sent, Postgres rolls it back, and the whole transaction
 *   function runs again on a new connection. When it breaks while COMMIT is on its way, the outcome is asked
 *   of Postgres (`txid_status(xid)`) on a new connection: `committed` → the first run's result stands (nothing
 *   runs twice); `aborted` → it runs again; `in progress` → asked again after a backoff.
 * - A write outside a transaction runs as a one-statement transaction of the above, unless the caller says it
 *   is safe to repeat (an idempotent statement).
 *
 * The transaction function must be pure database work through its `q` (it may run more than once).
 */
import {
  commitLostMessage,
  commitUnknownMessage,
  DbUnavailableError,
  describeDbError,
  isTransientDbError,
  unavailableMessage,
} from "./errors";
import { retryTransient, TryAgainError } from "./retry";

/** Raw SQL inside a transaction: `$1` placeholders, rows as plain objects. */
export type Query = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

/** What a transaction needs of a connection (the Neon driver's `Client`). */
export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<unknown>;
}

/** `rows` of a driver result (the last one when a simple query returned several). */
export function rowsOf<R>(result: unknown): R[] {
  const last = Array.isArray(result) ? result[result.length - 1] : result;
  return ((last as { rows?: R[] } | undefined)?.rows ?? []) as R[];
}

const DATA_CHANGE =
  /\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|nextval|setval|set_config|pg_advisory_lock|txid_current|pg_current_xact_id)\b/i;

/**
 * True when `text` is a plain read that may be repeated after a dropped connection: it starts with `SELECT`
 * or `WITH` and changes nothing (no INSERT/UPDATE/DELETE/MERGE/TRUNCATE, no sequence, setting or lock
 * function). A `FOR UPDATE`/`FOR SHARE` row lock alone does not make it a write.
 */
export function isRepeatable(text: string): boolean {
  if (!/^\s*(SELECT|WITH|VALUES|SHOW)\b/i.test(text)) return false;
  return !DATA_CHANGE.test(text.replace(/\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE|KEY\s+SHARE)\b/gi, ""));
}

/**
 * Run `fn` inside BEGIN/COMMIT on `connect()`'s connection, exactly once as seen by the database, retrying
 * transient connection failures within the retry budget (see the module comment).
 * @param connect the connection to use now (opens one when the last was lost; may throw transient errors).
 * @param broken called with a connection whose ROLLBACK failed (it must not be reused).
 * @throws fn's own errors (after ROLLBACK), unchanged; DbUnavailableError when the budget is spent
 *   (`commitUnknown: true` when the outcome of a COMMIT could not be learnt).
 */
export async function runTransaction<T>(
  connect: () => Promise<SqlClient>,
  fn: (q: Query) => Promise<T>,
  broken: (client: SqlClient) => void,
): Promise<T> {
  let unknown: { xid: string; result: T; cause: string } | undefined;
  return retryTransient(
    async () => {
      if (unknown) {
        const client = await connect();
        const [row] = rowsOf<{ status: string | null }>(
          await client.query("SELECT txid_status($1::bigint) AS status", [unknown.xid]),
        );
        const status = row?.status ?? null;
        if (status === "committed") return unknown.result;
        if (status === "in progress") throw new TryAgainError(`transaction ${unknown.xid} still in progress`);
        if (status !== "aborted") {
          throw new DbUnavailableError(commitLostMessage(unknown.cause), true);
        }
        unknown = undefined;
      }
      const client = await connect();
      const [begun] = rowsOf<{ xid: string }>(
        await client.query("BEGIN; SELECT txid_current()::text AS xid"),
      );
      const xid = begun?.xid;
      let result: T;
      try {
        result = await fn(async <R>(text: string, params: unknown[] = []) =>
          rowsOf<R>(await client.query(text, params)),
        );
      } catch (error) {
        await client.query("ROLLBACK").catch(() => broken(client));
        throw error;
      }
      try {
        await client.query("COMMIT");
      } catch (error) {
        if (xid !== undefined && isTransientDbError(error))
          unknown = { xid, result, cause: describeDbError(error) };
        throw error;
      }
      return result;
    },
    (budget, cause) =>
      unknown
        ? new DbUnavailableError(commitUnknownMessage(budget, unknown.cause), true)
        : new DbUnavailableError(unavailableMessage(budget, cause)),
  );
}
