/**
 * Database trouble on demand, with real parts only: a TCP relay (node:net) between Strata's DB proxy and the
 * real Postgres that can drop every connection and refuse new ones (an outage), or break a connection at a
 * chosen protocol message; and a database owned by a role with a low `CONNECTION LIMIT` (Postgres then
 * answers 53300 "too many connections for role").
 */
import net from "node:net";
import pg from "pg";
import { startDbProxy } from "../../../scripts/db-proxy.mjs";
import { runMigrations } from "../../../scripts/migrate.mjs";
import { PG_HOST, PG_PORT } from "../../helpers/postgres";

const ADMIN_URL = process.env.STRATA_TEST_ADMIN_URL ?? `postgres://postgres@${PG_HOST}:${PG_PORT}/postgres`;

/**
 * What to do with a chunk the client sends: pass it, break the connection before / right after passing it, or
 * hold it (the server never gets it, so the client waits for an answer that never comes).
 */
export type Verdict = "pass" | "drop" | "pass-then-drop" | "hold";

export interface TcpRelay {
  /** "127.0.0.1:port": the target to give the DB proxy. */
  address: string;
  /** Drop every open connection and refuse new ones (they are reset at once) until {@link restore}. */
  cut(): void;
  restore(): void;
  /** Connections accepted (and relayed), refused while cut, and dropped by {@link cut} or a verdict. */
  readonly accepted: number;
  readonly refused: number;
  readonly dropped: number;
  /** Decide per client chunk (default: pass everything). */
  inspect: (chunk: Buffer) => Verdict;
  close(): Promise<void>;
}

/** Start a relay on 127.0.0.1 (random port) to the test Postgres. */
export async function startRelay(): Promise<TcpRelay> {
  const open = new Set<{ client: net.Socket; server: net.Socket }>();
  let down = false;
  const relay = {
    accepted: 0,
    refused: 0,
    dropped: 0,
    inspect: (_chunk: Buffer): Verdict => "pass",
  };
  const drop = (pair: { client: net.Socket; server: net.Socket }) => {
    if (!open.delete(pair)) return;
    relay.dropped++;
    pair.client.resetAndDestroy();
    pair.server.resetAndDestroy();
  };
  const server = net.createServer((client) => {
    if (down) {
      relay.refused++;
      client.resetAndDestroy();
      return;
    }
    relay.accepted++;
    const upstream = net.connect(PG_PORT, PG_HOST);
    const pair = { client, server: upstream };
    open.add(pair);
    client.on("data", (chunk) => {
      const verdict = relay.inspect(chunk);
      if (verdict === "drop") return drop(pair);
      if (verdict === "hold") return;
      upstream.write(chunk);
      if (verdict === "pass-then-drop") {
        // Let the server get it, but never let the answer reach the client.
        client.resetAndDestroy();
        open.delete(pair);
        relay.dropped++;
        setTimeout(() => upstream.end(), 200);
      }
    });
    upstream.on("data", (chunk) => {
      if (!client.destroyed) client.write(chunk);
    });
    const done = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", done);
    upstream.on("error", done);
    client.on("close", done);
    upstream.on("close", done);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return Object.assign(relay, {
    address: `127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const pair of [...open]) drop(pair);
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of [...open]) drop(pair);
        server.close(() => resolve());
      }),
  });
}

/** True when `chunk` holds a simple-protocol Query message ('Q') whose text starts with `sql`. */
export function isSimpleQuery(chunk: Buffer, sql: string): boolean {
  return chunk.length > 5 && chunk[0] === 0x51 && chunk.subarray(5, 5 + sql.length).toString() === sql;
}

/** True when `chunk` starts with an extended-protocol Parse message ('P') whose statement text contains `sql`. */
export function isParse(chunk: Buffer, sql: string): boolean {
  return chunk[0] === 0x50 && chunk.includes(Buffer.from(sql));
}

export interface LimitedDatabase {
  role: string;
  url: string;
  /** STRATA_DB_PROXY for it. */
  proxy: string;
  /** Backends of the role now. */
  backends(): Promise<number>;
  close(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A migrated database owned by a new role with `CONNECTION LIMIT limit`, behind its own DB proxy. */
export async function createLimitedDatabase(limit: number): Promise<LimitedDatabase> {
  const suffix = `${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const role = `strata_lim_${suffix}`;
  const name = `strata_limdb_${suffix}`;
  await admin(async (c) => {
    await c.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT ${limit}`);
    await c.query(`CREATE DATABASE ${name} OWNER ${role}`);
  });
  const proxy = await startDbProxy({ target: `${PG_HOST}:${PG_PORT}` });
  const url = `postgres://${role}@${PG_HOST}:${PG_PORT}/${name}`;
  await runMigrations(url, proxy.endpoint);
  return {
    role,
    url,
    proxy: proxy.endpoint,
    backends: () =>
      admin(async (c) => {
        const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1", [role]);
        return r.rows[0].n as number;
      }),
    async close() {
      await proxy.close();
      await admin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.query(`DROP ROLE IF EXISTS ${role}`);
      });
    },
  };
}

/** The test database's URL behind a proxy whose target is `relay` (STRATA_DB_PROXY for it). */
export async function proxyThrough(relay: TcpRelay): Promise<{ proxy: string; close(): Promise<void> }> {
  const proxy = await startDbProxy({ target: relay.address });
  return { proxy: proxy.endpoint, close: () => proxy.close() };
}
