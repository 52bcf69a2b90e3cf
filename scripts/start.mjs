#!/usr/bin/env node
// `npm start`: run Strata on its embedded default (PGlite) or on DATABASE_URL.
// - DATABASE_URL unset → PGlite persisted in .strata/pgdata, served over the Postgres wire protocol
//   (pglite-socket) behind the local WebSocket proxy, so the app uses the same Neon driver as in production.
// - DATABASE_URL at a plain Postgres → the local proxy in front of it. At Neon (*.neon.tech) → no proxy.
// Then: migrations, `next build` when there is no build or it does not match the sources (the build stamp,
// scripts/build-stamp.mjs; STRATA_REBUILD=1 forces one; meanwhile the port answers 503 "Strata is building…",
// scripts/building-page.mjs), and `next start`. While it serves the embedded
// database, .strata/server.json tells the CLI how to reach it (scripts/local-db.mjs).
// Before `next start`: the execution service (lib/exec/service, scripts/exec-service.mjs) on the same database
// settings with a random token, which the app reaches through STRATA_EXEC_URL/STRATA_EXEC_TOKEN; it is restarted
// when it crashes (a log line each time) and stopped with the app.
// Sign-in (docs/auth.md): on the embedded default bound to loopback the app runs in `local` mode
// (STRATA_AUTH_MODE=local): the local owner account is created on first start and a loopback browser is signed in
// as it; BETTER_AUTH_SECRET and STRATA_SECRETS_KEY come from .strata/secrets.json (made on first start, 0600).
// Otherwise (DATABASE_URL, or HOST not loopback) `accounts` mode: both secrets must be in the environment.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "./build.mjs";
import { buildStaleness, computeBuildStamp, readBuildStamp } from "./build-stamp.mjs";
import { startBuildingPage } from "./building-page.mjs";
import { startExecService } from "./exec-service.mjs";
import {
  ensureLocalOwner,
  ensureSecrets,
  LocalDbError,
  SECRET_NAMES,
  serveDatabase,
  stateDir,
} from "./local-db.mjs";
import { ensureBubblewrap } from "./sandbox-check.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const log = (msg) => console.log(`[strata] ${msg}`);
const cleanups = [];

/** Whether `h` (a bind address) is loopback: the same test as lib/auth/mode.ts `isLoopbackHost`. */
function isLoopbackHost(h) {
  const name = h
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return name === "localhost" || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * The auth mode and the secrets the app gets (values never logged): `local` on the embedded default bound to
 * loopback, with the secrets of .strata/secrets.json (an environment value wins); else `accounts`, with both from
 * the environment.
 * @throws LocalDbError naming the missing variable and how to make one
 */
function authSetup(embedded) {
  const mode = embedded && isLoopbackHost(host) ? "local" : "accounts";
  const secrets = mode === "local" ? ensureSecrets(stateDir(root)) : {};
  for (const name of SECRET_NAMES) {
    const value = process.env[name] || secrets[name];
    if (!value || value.length < 32) {
      const why = embedded ? `HOST=${host} is not a loopback address` : "DATABASE_URL is set";
      throw new LocalDbError(
        `${name} is ${value ? "shorter than 32 characters" : "not set"}: ${why}, so npm start does not make one. Create it with \`openssl rand -base64 32\` and start again with ${name}=<that value> in the environment (keep it: changing ${name === "BETTER_AUTH_SECRET" ? "it signs everyone out" : "it makes the stored workspace secrets unreadable"}).`,
      );
    }
    secrets[name] = value;
  }
  return { mode, secrets };
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

/** Why it builds, as the building page says it (in parentheses). */
const PAGE_REASONS = {
  forced: "STRATA_REBUILD=1",
  none: "no build yet",
  unstamped: "the build has no build stamp",
  changed: "the sources changed since the last build",
};

/** Build when there is no build, it does not match the sources, or STRATA_REBUILD=1; say why. */
async function ensureBuild(onSpawn) {
  const started = performance.now();
  const { stamp, files } = computeBuildStamp(root);
  const stampMs = Math.round(performance.now() - started);
  const why = process.env.STRATA_REBUILD === "1" ? "forced" : buildStaleness(root, stamp);
  if (!why) return;
  const reason = {
    forced: "STRATA_REBUILD=1: rebuilding",
    none: "no build yet: building the app",
    unstamped: "the build in .next has no build stamp (it was made by `next build` directly): rebuilding",
    changed: `the sources changed since the last build (build stamp ${readBuildStamp(root)?.stamp.slice(0, 12)} → ${stamp.slice(0, 12)}, ${files} files hashed in ${stampMs} ms): rebuilding`,
  }[why];
  log(`${reason} (2–3 minutes on a small machine)…`);
  // During the build the port answers "Strata is building…" (503) instead of refusing connections; it is
  // closed (awaited, so the port is free) before `next start` is spawned.
  const page = await startBuildingPage({ port, host, reason: PAGE_REASONS[why] });
  cleanups.push(() => page.close());
  log(`meanwhile http://${host}:${port} answers "Strata is building…" (503) and reloads itself`);
  let result;
  try {
    result = await buildApp(root, { onSpawn });
  } finally {
    await page.close();
  }
  if (!result.ok) {
    throw new Error(
      `next build failed (exit ${result.status}); its errors are above. Fix them (\`git status\` shows local changes; \`git pull\` may bring a fix), then run npm start again: it rebuilds.`,
    );
  }
  log(`built in ${Math.round(result.ms / 1000)} s`);
}

let stopping = false;
/** Stop everything this start began (the build or next start and its next-server child, the database). */
async function stop(code) {
  if (stopping) return;
  stopping = true;
  // Said only when something was started (a start refused up front says its one line and nothing else).
  const started = cleanups.length > 0;
  if (started) log("stopping: the app, the execution service and the database…");
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  if (started) log("stopped");
  process.exit(code);
}

/** Run `child` until this start stops; next start runs in its own process group so stopping ends its children. */
function own(child, group) {
  cleanups.push(() => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      if (group) process.kill(-child.pid, "SIGTERM");
      else child.kill("SIGTERM");
    } catch {
      // already gone
    }
  });
}

async function main() {
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
  await assertPortFree();
  const auth = authSetup(!process.env.DATABASE_URL);
  const database = await serveDatabase({
    dir: stateDir(root),
    databaseUrl: process.env.DATABASE_URL || undefined,
    publish: true,
    log,
  });
  cleanups.push(() => database.close());
  const { url, proxy, migrations } = database;
  log(
    `migrations: ${migrations.applied.length > 0 ? `applied ${migrations.applied.join(", ")}` : "up to date"} (${Math.round(migrations.ms)} ms)`,
  );
  if (auth.mode === "local") {
    const owner = await ensureLocalOwner(url, proxy?.endpoint);
    if (owner.created) log("created the local owner account (owner@strata.localhost)");
  }
  await ensureBuild((child) => own(child, false));
  if (stopping) return;
  const env = {
    ...process.env,
    ...auth.secrets,
    DATABASE_URL: url,
    HOST: host,
    STRATA_AUTH_MODE: auth.mode,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // The proxy's secret reaches only the app, through its environment (never a log line).
  if (proxy) env.STRATA_DB_PROXY = proxy.endpoint;
  // The sandbox's bubblewrap (docs/sandbox.md): installed as root when missing, else the start says how.
  ensureBubblewrap(log);
  // The execution service: shell commands run in its workers, off the app's event loop (docs/exec.md).
  const serviceEnv = { ...env };
  for (const name of SECRET_NAMES) delete serviceEnv[name];
  const exec = await startExecService({ env: serviceEnv, restart: true, log });
  cleanups.push(() => exec.close());
  Object.assign(env, exec.env);
  log(`execution service at ${exec.url}`);
  if (stopping) return;
  serveApp(env, auth.mode);
}

/** When the app server stopped on its own (recent first): more than 3 in a minute and it is not restarted. */
const appExits = [];

/**
 * Run `next start` (in its own process group) and say when it is ready. When it stops on its own — a crash, a
 * `kill -9` — it is started again, as the execution service is; the fourth stop within a minute ends npm start with
 * what to do.
 */
function serveApp(env, mode) {
  const next = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", host],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"], env, detached: true },
  );
  own(next, true);
  next.stdout.on("data", (chunk) => {
    const text = String(chunk);
    process.stdout.write(text);
    if (/Ready in|✓ Ready/.test(text)) announce(mode);
  });
  next.on("exit", (code, signal) => {
    if (stopping) return;
    // What the dead server's group left (a next-server child) would hold the port.
    try {
      process.kill(-next.pid, "SIGKILL");
    } catch {
      // nothing left
    }
    const now = Date.now();
    while (appExits.length > 0 && now - appExits[0] > 60_000) appExits.shift();
    appExits.push(now);
    const why = signal ? `killed by ${signal}` : `exit ${code}`;
    if (appExits.length > 3) {
      log(
        `the app server stopped ${appExits.length} times within a minute (last: ${why}); not restarting it. Its errors are above: fix them, then run npm start again.`,
      );
      void stop(code || 1);
      return;
    }
    log(`the app server stopped (${why}); starting it again`);
    serveApp(env, mode);
  });
}

/** The lines said once the app answers: where, and how to sign in. */
function announce(mode) {
  log(`Strata is running at http://${host}:${port}`);
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  log(
    mode === "local"
      ? "signed in automatically as the local owner (embedded default, loopback)"
      : process.env.STRATA_SIGNUP === "closed"
        ? "accounts mode, sign-up closed: create accounts with npx strata user create --email you@example.com --name You"
        : `accounts mode: sign up at http://${shownHost}:${port}/sign-up, or create the first owner with npx strata user create --email you@example.com --name You`,
  );
  // proxy.ts answers only the names it is served under (DNS rebinding): say so when HOST names none.
  if (["0.0.0.0", "::", "[::]"].includes(host) && !process.env.STRATA_ALLOWED_HOSTS) {
    log(
      `HOST=${host} listens on every interface, but only 127.0.0.1, localhost and [::1] are answered; list the names or addresses clients use in STRATA_ALLOWED_HOSTS (comma-separated)`,
    );
  }
}

main().catch(async (error) => {
  console.error(`[strata] ${error.message}`);
  await stop(1);
});
