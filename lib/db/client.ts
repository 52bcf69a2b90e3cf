/**
 * The single data-access path: Drizzle over `@neondatabase/serverless` (WebSocket `Pool`), in every mode.
 *
 * - `DATABASE_URL` at Neon: the driver's defaults.
 * - `STRATA_DB_PROXY=host:port` set: a plain Postgres (or the embedded PGlite socket) reached through
 *   Strata's local WebSocket→TCP proxy (`scripts/db-proxy.mjs`), plain `ws://`, no pipelining.
 *
 * Edge-safe: uses the runtime's global `WebSocket`; Node scripts call `setNodeWebSocket(ws)` first.
 */
import { neonConfig, Pool } from "@neondatabase/serverless";
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

/** Point the Neon driver at the local proxy when `STRATA_DB_PROXY` is set. Idempotent. */
function configureDriver(): void {
  const proxy = process.env.STRATA_DB_PROXY;
  if (configuredFor === (proxy ?? "")) return;
  configuredFor = proxy ?? "";
  if (proxy) {
    neonConfig.wsProxy = (host, port) => `${proxy}/v1?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
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

/**
 * A lazily opened connection scope. Queries open the pool on first use; `release()` closes it so a
 * streaming request holds no connection while it waits on the model.
 */
export class DbScope {
  private handle: DbHandle | undefined;
  constructor(private readonly url?: string) {}

  /** Run `fn` with the scope's Drizzle handle, opening it if needed. */
  async run<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return fn(this.open().db);
  }

  /** Run raw SQL (`$1` placeholders) on the scope's pool. */
  async query<R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
    const result = await this.open().pool.query(text, params);
    return result.rows as R[];
  }

  /**
   * Run `fn` inside BEGIN/COMMIT on one connection; ROLLBACK and rethrow when it throws.
   * `q` runs raw SQL on that connection.
   */
  async transaction<T>(
    fn: (q: <R = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>) => Promise<T>,
  ): Promise<T> {
    const client = await this.open().pool.connect();
    try {
      await client.query("BEGIN");
      const result = await fn(async (text, params = []) => (await client.query(text, params)).rows);
      await client.query("COMMIT");
      client.release();
      return result;
    } catch (error) {
      let broken = false;
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      client.release(broken);
      throw error;
    }
  }

  private open(): DbHandle {
    this.handle ??= openDb({ url: this.url });
    return this.handle;
  }

  /** Close the pool (no-op when not open). The next `run` reopens it. */
  async release(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    if (h) await h.close();
  }
}

/** Run `fn` in a fresh scope and release it afterwards. */
export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const scope = new DbScope();
  try {
    return await scope.run(fn);
  } finally {
    await scope.release();
  }
}
