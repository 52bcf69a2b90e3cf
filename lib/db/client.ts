/**
 * The single data-access path: Drizzle / raw SQL over `@neondatabase/serverless` (one WebSocket `Client` per
 * `DbScope`), in every mode.
 *
 * - `DATABASE_URL` at Neon: the driver's defaults.
 * - `STRATA_DB_PROXY=host:port/secret` set: a plain Postgres (or the embedded PGlite socket) reached through
 *   Strata's local WebSocket→TCP proxy (`scripts/db-proxy.mjs`), plain `ws://`, no pipelining.
 *
 * Edge-safe: uses the runtime's global `WebSocket`; Node scripts call `setNodeWebSocket(ws)` first.
 */
import { Client, neonConfig } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import * as schema from "@/db/schema";
import {
  DbBusyError,
  describeDbError,
  isTooManyConnections,
  queueTimeoutMessage,
  tooManyConnectionsMessage,
} from "./errors";
import { acquireSlot, type IdleHolder, type Lease, setIdle } from "./limiter";
import { applyDriverProxy } from "./proxy-address.mjs";
import { retryTransient } from "./retry";
import { dbSettings } from "./settings";
import { isRepeatable, type Query, rowsOf, runTransaction } from "./transaction";

export type Db = NeonDatabase<typeof schema>;
export type { Query } from "./transaction";

/** How long `DbScope.release()` waits for the server to close the connection (ms). */
const RELEASE_TIMEOUT_MS = 2000;

/**
 * Point one Neon client at the local proxy when `STRATA_DB_PROXY` (`host:port/secret`, handed over by whoever
 * started the proxy) is set, read at each connection: {@link applyDriverProxy} on the client's own `neonConfig`.
 * @throws Error (without the value, which holds the secret) when it is not `host:port/secret`.
 */
function routeThroughProxy(client: Client): void {
  const proxy = process.env.STRATA_DB_PROXY;
  if (proxy) applyDriverProxy(client.neonConfig, proxy);
}

/** Node only (Node 20 has no global WebSocket): give the driver the `ws` package's constructor. */
export function setNodeWebSocket(ctor: unknown): void {
  neonConfig.webSocketConstructor = ctor as typeof WebSocket;
}

/**
 * The database URL, or an error telling how to configure one.
 * @throws Error when `DATABASE_URL` is unset.
 */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    throw new Error(
      "DATABASE_URL is not set. Start Strata with `npm start` (embedded PGlite) or set DATABASE_URL (and STRATA_DB_PROXY for a plain Postgres).",
    );
  }
  return url;
}

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms) as unknown as { unref?: () => void };
    timer.unref?.();
  });

/** How long opening a connection may take before it counts as failed (and is retried) (ms of runnable time). */
export const CONNECT_TIMEOUT_MS = 5000;
/** The clock of {@link runnableDeadline}: one tick counts at most twice its length (ms). */
const DEADLINE_TICK_MS = 100;

/**
 * Call `onExpire` once `ms` of **runnable** time has passed: time is counted in ticks of {@link DEADLINE_TICK_MS},
 * each counting at most twice its length, so a stall of this process's event loop (a busy server on a loaded
 * machine) does not use the deadline up. A plain timer fires first thing after such a stall, before the socket
 * events queued behind it, and so killed connections whose answer was already waiting (the driver's own
 * `connectionTimeoutMillis` did that to e2e pages under load). Returns a function that cancels it.
 */
function runnableDeadline(ms: number, onExpire: () => void): () => void {
  let counted = 0;
  let last = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    counted += Math.min(now - last, 2 * DEADLINE_TICK_MS);
    last = now;
    if (counted < ms) return;
    clearInterval(timer);
    onExpire();
  }, DEADLINE_TICK_MS);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

/**
 * `client.connect()`, failed with "Connection timeout expired" (a transient error: retried) when it has no answer
 * within `ms` of runnable time ({@link runnableDeadline}); the client is then ended. (pg's `Client.end()` during
 * the handshake closes the socket but never settles `connect()`, hence the race.)
 */
async function connectWithin(client: Client, ms: number): Promise<void> {
  const connecting = client.connect();
  connecting.catch(() => undefined);
  let cancel = () => {};
  const expired = new Promise<never>((_resolve, reject) => {
    cancel = runnableDeadline(ms, () => {
      reject(new Error(`Connection timeout expired: no answer within ${ms / 1000} s`));
      void client.end().catch(() => undefined);
    });
  });
  try {
    await Promise.race([connecting, expired]);
  } finally {
    cancel();
  }
}

/** An open connection and the limiter slot it holds. */
interface Conn {
  client: Client;
  lease: Lease;
  closing?: Promise<void>;
}

/** Close `conn` (bounded by {@link RELEASE_TIMEOUT_MS}), then free its slot; once, however often called. */
function closeConn(conn: Conn): Promise<void> {
  conn.closing ??= Promise.race([conn.client.end().catch(() => undefined), sleep(RELEASE_TIMEOUT_MS)]).then(
    () => conn.lease.release(),
  );
  return conn.closing;
}

/**
 * A lazily opened connection scope: one dedicated connection, opened on first use and closed by
 * `release()`, so a streaming request holds no connection while it waits on the model. Operations are
 * serialised (a transaction never interleaves with another query of the scope).
 *
 * Bounded and resilient (see `lib/db/limiter.ts`, `lib/db/transaction.ts`):
 * - the connection holds one of the process's `STRATA_DB_MAX_CONNECTIONS` slots (queueing at most
 *   `STRATA_DB_QUEUE_TIMEOUT_MS`, then `DbBusyError`; Postgres's 53300 is a `DbBusyError` too); when the
 *   scope has run no statement for 50 ms while someone waits for a slot, it gives its connection up (the next
 *   statement reopens one), so a scope kept across slow work cannot starve or deadlock the others; a failed
 *   or lost connection frees its slot at once, a closed one when its close has finished (at most 2 s);
 * - a dropped or refused connection is retried with backoff within `STRATA_DB_RETRY_MS` for what is safe to
 *   repeat: opening, reads, whole transactions (exactly once, checked with `txid_status` when COMMIT broke),
 *   and writes (run as one-statement transactions unless marked repeatable); then `DbUnavailableError`.
 *
 * One `Client` rather than a `Pool`: in the edge runtime, `Pool.connect()` after `Pool.query()` on a
 * one-connection pool never resolves.
 */
export class DbScope implements IdleHolder {
  private conn: Conn | undefined;
  private connecting: Promise<Conn> | undefined;
  private drizzleDb: { client: Client; db: Db } | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private pending = 0;
  constructor(private readonly url?: string) {}

  /** Run `fn` with a Drizzle handle on the scope's connection (opening it is retried; `fn` runs once). */
  async run<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      const client = await retryTransient(() => this.connect());
      if (this.drizzleDb?.client !== client) this.drizzleDb = { client, db: drizzle({ client, schema }) };
      return fn(this.drizzleDb.db);
    });
  }

  /**
   * Run raw SQL (`$1` placeholders) on the scope's connection. A read (or, with `repeatable: true`, a
   * statement that is safe to run twice) is repeated after a dropped connection; any other statement runs as
   * a one-statement transaction, applied exactly once.
   * @throws DbBusyError, DbUnavailableError, or the statement's SQL error.
   */
  async query<R = Record<string, unknown>>(
    text: string,
    params: unknown[] = [],
    options: { repeatable?: boolean } = {},
  ): Promise<R[]> {
    if (options.repeatable ?? isRepeatable(text)) {
      return this.serial(() =>
        retryTransient(async () => rowsOf<R>(await (await this.connect()).query(text, params))),
      );
    }
    return this.serial(() => this.transact((q) => q<R>(text, params)));
  }

  /**
   * Run `fn` inside BEGIN/COMMIT; ROLLBACK and rethrow when it throws. `q` runs raw SQL in the transaction.
   * `fn` must be pure database work: after a dropped connection it runs again (see `runTransaction`).
   * @throws fn's errors, DbBusyError, DbUnavailableError.
   */
  async transaction<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    return this.serial(() => this.transact(fn));
  }

  /** Close the connection (no-op when not open) and free its slot. The next operation reopens it. */
  async release(): Promise<void> {
    await this.chain.catch(() => undefined);
    const conn = this.take();
    if (conn) await closeConn(conn);
  }

  /**
   * Give the connection up without waiting for it to close: queued operations finish on it first, the next
   * operation opens a new one, and the close runs in the background (bounded like {@link release}; the slot
   * is freed when it has finished). For the moment before a model request, where waiting for the server's
   * goodbye only delays the request.
   */
  detach(): void {
    void this.serial(async () => {
      const conn = this.take();
      if (conn) void closeConn(conn);
    });
  }

  /** Limiter callback: the scope is idle and someone waits for a slot, so close the connection. */
  yieldConnection(): void {
    if (this.pending > 0) return;
    const conn = this.take();
    if (conn) void closeConn(conn);
  }

  private transact<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    return runTransaction(
      () => this.connect(),
      fn,
      () => this.lost(),
    );
  }

  /** Detach the current connection from the scope (the caller closes it). */
  private take(): Conn | undefined {
    const conn = this.conn;
    this.conn = undefined;
    this.drizzleDb = undefined;
    setIdle(this, false);
    return conn;
  }

  /** The connection failed: forget it, free its slot at once (its socket is dead) and close it in the background. */
  private lost(conn = this.conn): void {
    if (!conn) return;
    if (this.conn === conn) this.take();
    conn.lease.release();
    void closeConn(conn);
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    this.pending++;
    setIdle(this, false);
    const run = async () => {
      try {
        return await op();
      } finally {
        this.pending--;
        if (this.pending === 0 && this.conn) setIdle(this, true);
      }
    };
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async connect(): Promise<Client> {
    if (this.conn) return this.conn.client;
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return (await this.connecting).client;
  }

  /**
   * Take a slot, then open a connection.
   * @throws DbBusyError (no slot in time, or Postgres's 53300); the driver's error when it cannot connect.
   */
  private async open(): Promise<Conn> {
    const { maxConnections, queueTimeoutMs } = dbSettings();
    const lease = await acquireSlot({
      max: maxConnections,
      waitMs: queueTimeoutMs,
      onTimeout: () => new DbBusyError(queueTimeoutMessage(maxConnections, queueTimeoutMs)),
    });
    let conn: Conn;
    try {
      const client = new Client({ connectionString: this.url ?? databaseUrl() });
      routeThroughProxy(client);
      conn = { client, lease };
    } catch (error) {
      lease.release();
      throw error;
    }
    conn.client.on("error", () => this.lost(conn));
    try {
      await connectWithin(conn.client, CONNECT_TIMEOUT_MS);
    } catch (error) {
      // No session was opened: the slot is free at once (the failed socket is closed in the background).
      lease.release();
      void conn.client.end().catch(() => undefined);
      if (isTooManyConnections(error))
        throw new DbBusyError(tooManyConnectionsMessage(describeDbError(error)));
      throw error;
    }
    this.conn = conn;
    return conn;
  }
}

/** Run `fn` with a fresh scope and release it afterwards. */
export async function withDb<T>(fn: (scope: DbScope) => Promise<T>): Promise<T> {
  const scope = new DbScope();
  try {
    return await fn(scope);
  } finally {
    await scope.release();
  }
}
