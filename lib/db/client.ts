/**
 * The single data-access path: Drizzle over `@neondatabase/serverless` (WebSocket `Pool`), in every mode.
 *
 * - `DATABASE_URL` at Neon: the driver's defaults.
 * - `STRATA_DB_PROXY=host:port/secret` set: a plain Postgres (or the embedded PGlite socket) reached through
 *   Strata's local WebSocket→TCP proxy (`scripts/db-proxy.mjs`), plain `ws://`, no pipelining.
 *
 * Edge-safe: uses the runtime's global `WebSocket`; Node scripts call `setNodeWebSocket(ws)` first.
 */
import { Client, neonConfig, Pool } from "@neondatabase/serverless";
import { drizzle, type NeonDatabase } from "drizzle-orm/neon-serverless";
import * as schema from "@/db/schema";

export type Db = NeonDatabase<typeof schema>;

/** A handle: Drizzle for typed queries, the Neon `Pool` for raw bulk SQL and explicit transactions. */
export interface DbHandle {
  db: Db;
  pool: Pool;
  close(): Promise<void>;
}

let configuredFor: string | undefined;

/** How long `DbScope.release()` waits for the server to close the connection (ms). */
const RELEASE_TIMEOUT_MS = 2000;

/**
 * Point the Neon driver at the local proxy when `STRATA_DB_PROXY` is set. Idempotent.
 *
 * `STRATA_DB_PROXY` = `host:port/secret` (the proxy's `endpoint`, handed over by whoever started it): the
 * driver connects to `ws://host:port/v1/<secret>`, and the proxy relays only to the database it was started
 * for, so the driver's host/port arguments are not sent.
 * @throws Error (without the value, which holds the secret) when it is not `host:port/secret`.
 */
function configureDriver(): void {
  const proxy = process.env.STRATA_DB_PROXY;
  if (configuredFor === (proxy ?? "")) return;
  if (proxy) {
    const match = /^([^/\s]+)\/([A-Za-z0-9_-]{22,})$/.exec(proxy);
    if (!match) {
      throw new Error(
        "STRATA_DB_PROXY must be host:port/secret as handed over by the process that started the database proxy (npm start, the test helpers, the CLI); a bare host:port is no longer accepted.",
      );
    }
    const address = `${match[1]}/v1/${match[2]}`;
    neonConfig.wsProxy = () => address;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  configuredFor = proxy ?? "";
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

/** A Drizzle handle on its own pool; call `close()` when done. `max` = pool size (default 1). */
export function openDb(options: { url?: string; max?: number } = {}): DbHandle {
  configureDriver();
  const pool = new Pool({ connectionString: options.url ?? databaseUrl(), max: options.max ?? 1 });
  pool.on("error", () => {
    /* a dropped idle connection is reopened on the next query */
  });
  const db = drizzle({ client: pool, schema });
  return { db, pool, close: () => pool.end() };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/** Raw SQL inside a {@link DbScope.transaction}: `$1` placeholders, rows as plain objects. */
export type Query = <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

/**
 * A lazily opened connection scope: one dedicated connection, opened on first use and closed by
 * `release()`, so a streaming request holds no connection while it waits on the model. Operations are
 * serialised (a transaction never interleaves with another query of the scope).
 *
 * One `Client` rather than a `Pool`: in the edge runtime, `Pool.connect()` after `Pool.query()` on a
 * one-connection pool never resolves.
 */
export class DbScope {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private drizzleDb: Db | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  constructor(private readonly url?: string) {}

  /** Run `fn` with a Drizzle handle on the scope's connection. */
  async run<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      const client = await this.connect();
      this.drizzleDb ??= drizzle({ client, schema });
      return fn(this.drizzleDb);
    });
  }

  /** Run raw SQL (`$1` placeholders) on the scope's connection. */
  async query<R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
    return this.serial(async () => (await (await this.connect()).query(text, params)).rows as R[]);
  }

  /**
   * Run `fn` inside BEGIN/COMMIT; ROLLBACK and rethrow when it throws. `q` runs raw SQL in the transaction.
   */
  async transaction<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      const client = await this.connect();
      await client.query("BEGIN");
      try {
        const result = await fn(async (text, params = []) => (await client.query(text, params)).rows);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => this.drop());
        throw error;
      }
    });
  }

  /** Close the connection (no-op when not open). The next operation reopens it. */
  async release(): Promise<void> {
    await this.chain.catch(() => undefined);
    const client = this.client;
    this.drop();
    if (client) {
      // Never let a server that does not close on Terminate hang the request.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        client.end().catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, RELEASE_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    }
  }

  /**
   * Give the connection up without waiting for it to close: queued operations finish on it first, the next
   * operation opens a new one, and the close runs in the background (bounded like {@link release}). For the
   * moment before a model request, where waiting for the server's goodbye only delays the request.
   */
  detach(): void {
    void this.serial(async () => {
      const client = this.client;
      this.drop();
      if (client) void Promise.race([client.end().catch(() => undefined), sleep(RELEASE_TIMEOUT_MS)]);
    });
  }

  private drop(): void {
    this.client = undefined;
    this.connecting = undefined;
    this.drizzleDb = undefined;
  }

  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op, op);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async connect(): Promise<Client> {
    if (this.client) return this.client;
    configureDriver();
    this.connecting ??= (async () => {
      const client = new Client({ connectionString: this.url ?? databaseUrl() });
      client.on("error", () => this.drop());
      await client.connect();
      this.client = client;
      return client;
    })();
    try {
      return await this.connecting;
    } catch (error) {
      this.connecting = undefined;
      throw error;
    }
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
