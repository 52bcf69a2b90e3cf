#!/usr/bin/env node
// `npm start`: run Strata on its embedded default (PGlite) or on DATABASE_URL.
// - DATABASE_URL unset → PGlite persisted in .strata/pgdata, served over the Postgres wire protocol
//   (pglite-socket) behind the local WebSocket proxy, so the app uses the same Neon driver as in production.
// - DATABASE_URL at a plain Postgres → the local proxy in front of it. At Neon (*.neon.tech) → no proxy.
// Then: migrations, `next build` when there is no build yet, and `next start`.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startDbProxy } from "./db-proxy.mjs";
import { runMigrations } from "./migrate.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const log = (msg) => console.log(`[strata] ${msg}`);
const cleanups = [];

async function embeddedDatabase() {
  const dataDir = path.join(root, ".strata", "pgdata");
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = path.join(root, ".strata", "pgdata.lock");
  try {
    const pid = Number(fs.readFileSync(lock, "utf8"));
    if (pid && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        throw new Error(
          `.strata/pgdata is in use by process ${pid}; stop it first (PGlite must have one owner).`,
        );
      } catch (error) {
        if (error.code !== "ESRCH") throw error;
      }
    }
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  fs.writeFileSync(lock, String(process.pid));
  cleanups.push(() => fs.rmSync(lock, { force: true }));
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const started = performance.now();
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 64 });
  await server.start();
  const address = server.getServerConn();
  log(
    `embedded PGlite (${path.relative(root, dataDir)}) ready on ${address} in ${Math.round(performance.now() - started)} ms`,
  );
  cleanups.push(async () => {
    await server.stop();
    await db.close();
  });
  return { url: `postgres://postgres@${address}/postgres`, address };
}

function hostPort(url) {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
}

/** Fail early, with the fix, when the port is taken (instead of after the database and the build). */
async function assertPortFree() {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`${host}:${port} is already in use. Start on another port: PORT=${port + 1} npm start`)
          : error,
      ),
    );
    server.listen(port, host, resolve);
  });
  await new Promise((resolve) => server.close(resolve));
}

async function main() {
  await assertPortFree();
  let url = process.env.DATABASE_URL;
  let proxy;
  if (!url) {
    const embedded = await embeddedDatabase();
    url = embedded.url;
    proxy = await startDbProxy({ target: embedded.address });
  } else if (!/\.neon\.tech$/i.test(new URL(url).hostname)) {
    proxy = await startDbProxy({ target: hostPort(url) });
  }
  if (proxy) {
    cleanups.push(() => proxy.close());
    log(`database proxy on ${proxy.address}`);
  }
  const ms = await runMigrations(url, proxy?.endpoint);
  log(`migrations applied in ${Math.round(ms)} ms`);

  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID")) || process.env.STRATA_REBUILD === "1") {
    log("building the app (first run only; 2–3 minutes on a small machine)…");
    const build = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const env = { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1" };
  // The proxy's secret reaches only the app, through its environment (never a log line).
  if (proxy) env.STRATA_DB_PROXY = proxy.endpoint;
  const next = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", host],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
      env,
    },
  );
  next.stdout.on("data", (chunk) => {
    const text = String(chunk);
    process.stdout.write(text);
    if (/Ready in|✓ Ready/.test(text)) {
      log(`Strata is running at http://${host}:${port}`);
      // proxy.ts answers only the names it is served under (DNS rebinding): say so when HOST names none.
      if (["0.0.0.0", "::", "[::]"].includes(host) && !process.env.STRATA_ALLOWED_HOSTS) {
        log(
          `HOST=${host} listens on every interface, but only 127.0.0.1, localhost and [::1] are answered; list the names or addresses clients use in STRATA_ALLOWED_HOSTS (comma-separated)`,
        );
      }
    }
  });
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    next.kill("SIGTERM");
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
    process.exit(code);
  };
  next.on("exit", (code) => stop(code ?? 0));
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
}

main().catch(async (error) => {
  console.error(`[strata] ${error.message}`);
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  process.exit(1);
});
