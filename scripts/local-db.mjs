// The database side of `npm start`, shared with the CLI (bin/lib/runtime.mjs) and `npm run db:migrate`:
// - the embedded PGlite in <state dir>/pgdata (one owner at a time: <state dir>/pgdata.lock holds its pid),
//   served over the Postgres wire protocol (pglite-socket) behind the local WebSocket proxy;
// - or a plain Postgres (DATABASE_URL) behind the proxy; a Neon host directly;
// - <state dir>/server.json (mode 0600) published while `npm start` serves the embedded database, so the CLI
//   can reach it: { pid, startedAt, dataDir, url, proxy } where `proxy` = the proxy's endpoint
//   "host:port/secret" (its per-start secret: never printed). Removed on stop.
// - <state dir>/secrets.json (mode 0600): the embedded default's BETTER_AUTH_SECRET and STRATA_SECRETS_KEY, made
//   once (32 random bytes each, base64); never printed.
// - the local owner account (owner@strata.localhost), created on the embedded default's first start.
// The state dir is `.strata` in the repo, or STRATA_DIR.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startDbProxy } from "./db-proxy.mjs";
import { migrateDatabase, nodePool } from "./migrate.mjs";
import { ProtocolSessionQueue } from "./pglite-queue.mjs";

/** The directory of Strata's local state: STRATA_DIR of `env` (default `process.env`), else `<root>/.strata`. */
export function stateDir(root, env = process.env) {
  return env.STRATA_DIR ? path.resolve(env.STRATA_DIR) : path.join(root, ".strata");
}

/** A failure with a message meant for the user as it is (no stack). */
export class LocalDbError extends Error {
  name = "LocalDbError";
}

/** True when a process with this pid exists (EPERM: it exists but is another user's). */
export function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** How a path is shown: relative to the working directory when below it, else absolute. */
export function shown(p) {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : p;
}

/**
 * Take <dir>/pgdata.lock for this process (atomically; a lock of a dead process is taken over).
 * @returns {() => void} releases it (only while it still holds this pid)
 * @throws LocalDbError naming the live owner and what to do
 */
export function acquirePgdataLock(dir) {
  const lock = path.join(dir, "pgdata.lock");
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if (error.code !== "EEXIST" || attempt > 0) throw error;
      const owner = Number(fs.readFileSync(lock, "utf8"));
      if (owner !== process.pid && isAlive(owner)) {
        throw new LocalDbError(
          `${shown(path.join(dir, "pgdata"))} is in use by process ${owner} (PGlite has one owner); stop that process first, or set DATABASE_URL to use another database`,
        );
      }
      fs.rmSync(lock, { force: true });
    }
  }
  return () => {
    try {
      if (Number(fs.readFileSync(lock, "utf8")) === process.pid) fs.rmSync(lock, { force: true });
    } catch {
      // already gone
    }
  };
}

/**
 * Open the embedded PGlite of `dir` (created when missing) and serve it on a loopback port.
 * @returns {Promise<{ url: string, address: string, ms: number, close(): Promise<void> }>} `url` =
 *   postgres://postgres@127.0.0.1:<port>/postgres; `ms` = time to open it.
 * @throws LocalDbError when another live process owns it
 */
export async function openEmbeddedDatabase(dir) {
  const dataDir = path.join(dir, "pgdata");
  fs.mkdirSync(dataDir, { recursive: true });
  // The state directory (database files, server.json) is the owner's alone.
  fs.chmodSync(dir, 0o700);
  const release = acquirePgdataLock(dir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    const started = performance.now();
    const db = await PGlite.create(dataDir);
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 64 });
    // One PGlite session behind many connections: keep each connection's statement sequences and transactions
    // together (scripts/pglite-queue.mjs); pglite-socket's own queue interleaves them.
    server.queryQueue = new ProtocolSessionQueue(db);
    await server.start();
    const address = server.getServerConn();
    return {
      url: `postgres://postgres@${address}/postgres`,
      address,
      ms: performance.now() - started,
      close: async () => {
        try {
          await server.stop();
          await db.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

function hostPort(url) {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
}

/**
 * Open the database `npm start` uses and migrate it: DATABASE_URL's (`databaseUrl`), else the embedded
 * PGlite of `dir`. With `publish`, write <dir>/server.json for the embedded database (removed by close).
 * @param {{ dir: string, databaseUrl?: string, publish?: boolean, log?: (msg: string) => void }} options
 * @returns {Promise<{ url: string, proxy?: { address: string, endpoint: string }, embedded: boolean,
 *   migrations: { applied: string[], total: number, ms: number }, close(): Promise<void> }>}
 *   `proxy.endpoint` is the STRATA_DB_PROXY value (holds the secret; never log it).
 */
export async function serveDatabase({ dir, databaseUrl, publish = false, log = () => undefined }) {
  const cleanups = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
    cleanups.length = 0;
  };
  try {
    let url = databaseUrl;
    let proxy;
    if (!url) {
      const embedded = await openEmbeddedDatabase(dir);
      cleanups.push(() => embedded.close());
      log(
        `embedded PGlite (${shown(path.join(dir, "pgdata"))}) ready on ${embedded.address} in ${Math.round(embedded.ms)} ms`,
      );
      url = embedded.url;
      proxy = await startDbProxy({ target: embedded.address });
    } else {
      let host;
      try {
        host = new URL(url).hostname;
      } catch {
        throw new LocalDbError("DATABASE_URL is not a valid postgres:// URL");
      }
      if (!/\.neon\.tech$/i.test(host)) proxy = await startDbProxy({ target: hostPort(url) });
    }
    if (proxy) {
      cleanups.push(() => proxy.close());
      log(`database proxy on ${proxy.address}`);
    }
    const migrations = await migrateDatabase(url, proxy?.endpoint);
    if (publish && !databaseUrl) {
      writeServerInfo(dir, { url, proxy: proxy.endpoint, dataDir: path.join(dir, "pgdata") });
      cleanups.push(() => removeServerInfo(dir));
    }
    return { url, proxy, embedded: !databaseUrl, migrations, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Write <dir>/server.json (mode 0600) for this process. */
export function writeServerInfo(dir, { url, proxy, dataDir }) {
  const file = path.join(dir, "server.json");
  const info = { pid: process.pid, startedAt: new Date().toISOString(), dataDir, url, proxy };
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/** Remove <dir>/server.json when it is this process's. */
export function removeServerInfo(dir) {
  const file = path.join(dir, "server.json");
  try {
    if (JSON.parse(fs.readFileSync(file, "utf8")).pid === process.pid) fs.rmSync(file, { force: true });
  } catch {
    // gone or unreadable: nothing of ours to remove
  }
}

/**
 * The running `npm start`'s <dir>/server.json, or undefined when there is none or its process is gone.
 * @returns {{ pid: number, startedAt: string, dataDir: string, url: string, proxy: string } | undefined}
 */
export function readServerInfo(dir) {
  let info;
  try {
    info = JSON.parse(fs.readFileSync(path.join(dir, "server.json"), "utf8"));
  } catch {
    return undefined;
  }
  if (typeof info?.url !== "string" || typeof info?.proxy !== "string" || !isAlive(info.pid))
    return undefined;
  return info;
}

/** The secrets the app needs, by name. */
export const SECRET_NAMES = ["BETTER_AUTH_SECRET", "STRATA_SECRETS_KEY"];

/**
 * <dir>/secrets.json, created on first use (dir 0700, file 0600) with a random value (32 bytes, base64) for each of
 * {@link SECRET_NAMES}; a name missing from an existing file is added. Never logs a value.
 * @returns {{ BETTER_AUTH_SECRET: string, STRATA_SECRETS_KEY: string }}
 * @throws LocalDbError when the file exists but is not a JSON object
 */
export function ensureSecrets(dir) {
  fs.mkdirSync(dir, { recursive: true });
  fs.chmodSync(dir, 0o700);
  const file = path.join(dir, "secrets.json");
  let secrets = {};
  if (fs.existsSync(file)) {
    try {
      secrets = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      secrets = undefined;
    }
    if (!secrets || typeof secrets !== "object" || Array.isArray(secrets))
      throw new LocalDbError(
        `${shown(file)} is not a JSON object; move it away and start again (a new one is made; everyone is signed out and workspace secrets must be entered again)`,
      );
  }
  const missing = SECRET_NAMES.filter(
    (name) => typeof secrets[name] !== "string" || secrets[name].length < 32,
  );
  if (missing.length > 0) {
    for (const name of missing) secrets[name] = crypto.randomBytes(32).toString("base64");
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  }
  fs.chmodSync(file, 0o600);
  return { BETTER_AUTH_SECRET: secrets.BETTER_AUTH_SECRET, STRATA_SECRETS_KEY: secrets.STRATA_SECRETS_KEY };
}

/** <dir>/secrets.json's values, or undefined when there is none (never creates it). */
export function readSecrets(dir) {
  try {
    const secrets = JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8"));
    return secrets && typeof secrets === "object" ? secrets : undefined;
  } catch {
    return undefined;
  }
}

export const LOCAL_OWNER_EMAIL = "owner@strata.localhost";
export const LOCAL_OWNER_NAME = "Local owner";

/**
 * Create the local owner (lib/auth/mode.ts LOCAL_OWNER_EMAIL: name "Local owner", email verified) with a personal
 * workspace and its owner member row, as Better Auth's sign-up would (lib/auth/workspaces.ts). Idempotent: an
 * existing owner (also the single-user era's `local` user, which migration 0008 renamed) is kept, and gets a
 * personal workspace and member row only when it has none.
 * @param {string} url the database URL; `proxy` its proxy endpoint (host:port/secret), if any
 * @returns {Promise<{ userId: string, created: boolean }>}
 */
export async function ensureLocalOwner(url, proxy) {
  const pool = nodePool(url, proxy);
  try {
    const inserted = await pool.query(
      `INSERT INTO users (name, email, email_verified) VALUES ($1, $2, true)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [LOCAL_OWNER_NAME, LOCAL_OWNER_EMAIL],
    );
    const { rows } = await pool.query("SELECT id FROM users WHERE email = $1", [LOCAL_OWNER_EMAIL]);
    const userId = rows[0].id;
    await pool.query(
      `INSERT INTO workspaces (name, kind, owner_user_id, slug)
       SELECT 'Personal', 'personal', $1::uuid, $2::text
       WHERE NOT EXISTS (SELECT 1 FROM workspaces WHERE owner_user_id = $1::uuid AND kind = 'personal')
       ON CONFLICT (slug) DO NOTHING`,
      [userId, `personal-${userId}`],
    );
    await pool.query(
      `INSERT INTO workspace_members (workspace_id, user_id, role)
       SELECT id, $1::uuid, 'owner' FROM workspaces WHERE owner_user_id = $1::uuid AND kind = 'personal'
       ON CONFLICT (workspace_id, user_id) DO NOTHING`,
      [userId],
    );
    return { userId, created: inserted.rows.length > 0 };
  } finally {
    await pool.end();
  }
}
