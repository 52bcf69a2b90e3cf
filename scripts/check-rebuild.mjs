#!/usr/bin/env node
// CI check (run by .ci/run after `npm test`): from a fresh clone, `npm start` serves the app; after a source
// change, `npm start` again says it rebuilds and serves the change.
//
// 1. Clone this repository's HEAD into a temp dir (node_modules hard-linked from here).
// 2. When this checkout has a stamped build of exactly the clone's sources (`npm test` just made one), copy
//    it into the clone: the first start must then serve it without building (asserted). Otherwise the first
//    start builds from scratch (asserted). This saves one full build in CI.
// 3. First `npm start` (embedded PGlite in the clone's .strata, a free port, no provider key, no DATABASE_URL): it
//    says it signs in as the local owner; `/` redirects through the local sign-in to the signed-in IDE home (the
//    page names owner@strata.localhost and offers the import); the 404 page and, with that cookie,
//    /api/projects answer; .strata/server.json and .strata/secrets.json exist (mode 0600); stop the whole
//    process group; the port, server.json and the pgdata lock are released.
// 4. Change the 404 page's text in app/not-found.tsx; second `npm start`: its log says the sources changed
//    and it rebuilds; during the rebuild / answers 503 "Strata is building…" (scripts/building-page.mjs);
//    the new text is served. Stop; clean up (also on failure or Ctrl-C).
// Env: STRATA_CHECK_PORT (default: a free port); STRATA_CHECK_KEEP=1 keeps the temp dir.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { computeBuildStamp, readBuildStamp } from "./build-stamp.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const say = (msg) => console.log(`[check-rebuild] ${msg}`);
const PAGE_FILE = "app/not-found.tsx";
const PAGE_TEXT = "Page not found";
const BUILDING_TEXT = "Strata is building… (the sources changed since the last build)";
const READY_TIMEOUT_MS = 15 * 60_000;

let tmp;
let running;
let lastLog;

class CheckFailed extends Error {}
const fail = (msg) => {
  throw new CheckFailed(msg);
};

async function freePort() {
  if (process.env.STRATA_CHECK_PORT) return Number(process.env.STRATA_CHECK_PORT);
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function portIsFree(port) {
  const server = net.createServer();
  const ok = await new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (ok) await new Promise((resolve) => server.close(resolve));
  return ok;
}

/**
 * `npm start` in `dir` in its own process group; resolves once it logs that Strata is running.
 * `whileBuilding` (optional) runs once, awaited, as soon as the log says the building page listens.
 */
async function start(dir, port, label, whileBuilding) {
  const logFile = path.join(tmp, `${label}.log`);
  const out = fs.openSync(logFile, "w");
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1" };
  // The README's promise: no key and no external service (and npm start makes its own secrets).
  for (const name of Object.keys(env))
    if (
      /_API_KEY$/.test(name) ||
      /^(OPENAI_COMPATIBLE_BASE_URL|BETTER_AUTH_SECRET|STRATA_SECRETS_KEY|STRATA_AUTH_MODE)$/.test(name)
    )
      delete env[name];
  for (const name of ["DATABASE_URL", "STRATA_DB_PROXY", "STRATA_DIR", "STRATA_REBUILD"]) delete env[name];
  const started = performance.now();
  const child = spawn("npm", ["start"], { cwd: dir, env, detached: true, stdio: ["ignore", out, out] });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  running = { child, exited, logFile, port };
  lastLog = logFile;
  const log = () => fs.readFileSync(logFile, "utf8");
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let building = whileBuilding;
  for (;;) {
    if (/\[strata\] Strata is running at /.test(log())) break;
    if (building && /\[strata\] meanwhile http:\/\/\S+ answers "Strata is building…"/.test(log())) {
      await building();
      building = undefined;
    }
    if (child.exitCode !== null || child.signalCode !== null)
      fail(`${label}: npm start exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    if (Date.now() > deadline)
      fail(`${label}: npm start was not ready after ${READY_TIMEOUT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  say(`${label}: ready in ${Math.round((performance.now() - started) / 1000)} s`);
  return log;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stop the running `npm start` (SIGTERM to its whole process group) and check that it released what it held:
 * scripts/start.mjs (its pid from .strata/server.json) has exited, the port is free (no next-server left),
 * and .strata/server.json and .strata/pgdata.lock are gone. npm may exit before start.mjs has finished
 * closing the database, so these are awaited (20 s), not sampled.
 */
async function stop(dir) {
  if (!running) return;
  const { child, exited, port } = running;
  running = undefined;
  let startPid;
  try {
    startPid = dir
      ? JSON.parse(fs.readFileSync(path.join(dir, ".strata", "server.json"), "utf8")).pid
      : undefined;
  } catch {
    startPid = undefined;
  }
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
  const done = await Promise.race([exited, sleep(20_000).then(() => undefined)]);
  const deadline = Date.now() + 20_000;
  const released = async () =>
    (startPid === undefined || !isAlive(startPid)) &&
    (await portIsFree(port)) &&
    (!dir || ["server.json", "pgdata.lock"].every((name) => !fs.existsSync(path.join(dir, ".strata", name))));
  while (!(await released()) && Date.now() < deadline) await sleep(250);
  if (!done || (startPid !== undefined && isAlive(startPid))) {
    try {
      process.kill(-child.pid, "SIGKILL");
      if (startPid !== undefined) process.kill(startPid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
    fail(
      `npm start ${done ? `(scripts/start.mjs, pid ${startPid})` : ""} did not stop within 20 s of SIGTERM`,
    );
  }
  if (!(await portIsFree(port)))
    fail(`port ${port} is still in use after npm start stopped (next-server left behind)`);
  if (dir) {
    for (const name of ["server.json", "pgdata.lock"])
      if (fs.existsSync(path.join(dir, ".strata", name))) fail(`.strata/${name} was not removed on stop`);
  }
}

async function get(port, pathname, cookie) {
  const response = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    headers: cookie ? { cookie } : {},
    redirect: "manual",
  });
  return {
    status: response.status,
    text: await response.text(),
    location: response.headers.get("location"),
    cookies: response.headers.getSetCookie().map((c) => c.split(";")[0]),
  };
}

/**
 * The home page as a browser on the embedded default gets it: `/` redirects to the local sign-in, which sets the
 * session cookie and redirects back; `/` with it is the signed-in IDE home. Returns the cookie.
 */
async function signedInHome(port, label) {
  const first = await get(port, "/");
  const signIn = "/api/auth/local/sign-in?callbackURL=%2F";
  if (first.status !== 307 || first.location !== signIn)
    fail(`${label}: / answered ${first.status} → ${first.location} (expected 307 → ${signIn})`);
  const local = await get(port, signIn);
  const cookie = local.cookies.filter((c) => c.startsWith("strata.session_token=")).join("; ");
  if (local.status !== 302 || local.location !== "/" || !cookie)
    fail(
      `${label}: the local sign-in answered ${local.status} → ${local.location} with cookies [${local.cookies.map((c) => c.split("=")[0]).join(", ")}] (expected 302 → / with strata.session_token)`,
    );
  const home = await get(port, "/", cookie);
  for (const text of ["owner@strata.localhost", "Import a project", "Personal workspace"])
    if (home.status !== 200 || !home.text.includes(text))
      fail(`${label}: the signed-in home answered ${home.status} without "${text}"`);
  say(`${label}: / signed in as the local owner and served the IDE home`);
  return cookie;
}

async function main() {
  const t0 = performance.now();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "strata-rebuild-check-"));
  const dir = path.join(tmp, "repo");
  execFileSync("git", ["clone", "-q", root, dir], { stdio: "inherit" });
  execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);
  const port = await freePort();
  const { stamp } = computeBuildStamp(dir);
  const reuse = readBuildStamp(root)?.stamp === stamp && fs.existsSync(path.join(root, ".next", "BUILD_ID"));
  if (reuse) {
    execFileSync("cp", ["-a", path.join(root, ".next"), path.join(dir, ".next")]);
    say(`reusing this checkout's build of the same sources (stamp ${stamp.slice(0, 12)})`);
  } else say("no build of these sources here: the first start builds from scratch");
  say(`clone ${dir}, port ${port}`);

  const log1 = await start(dir, port, "start-1");
  if (reuse && /rebuilding|building the app/.test(log1()))
    fail("start-1 rebuilt although the build matched the sources");
  if (!reuse && !log1().includes("[strata] no build yet: building the app"))
    fail("start-1 did not say it builds the app");
  if (!log1().includes("[strata] signed in automatically as the local owner (embedded default, loopback)"))
    fail("start-1 did not say it signs in as the local owner");
  const cookie = await signedInHome(port, "start-1");
  const page1 = await get(port, "/rebuild-check-no-such-page");
  if (page1.status !== 404 || !page1.text.includes(PAGE_TEXT))
    fail(`start-1: the 404 page answered ${page1.status} without "${PAGE_TEXT}"`);
  const projects = await get(port, "/api/projects", cookie);
  if (projects.status !== 200)
    fail(`start-1: GET /api/projects answered ${projects.status}: ${projects.text}`);
  for (const name of ["server.json", "secrets.json"]) {
    const file = path.join(dir, ".strata", name);
    const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : undefined;
    if (mode !== 0o600)
      fail(`start-1: .strata/${name} ${mode === undefined ? "missing" : `has mode ${mode.toString(8)}`}`);
  }
  await killAppServer(dir, port, cookie, log1);
  await stop(dir);

  const marker = `Page not found (rebuild check ${Date.now().toString(36)})`;
  const file = path.join(dir, PAGE_FILE);
  const source = fs.readFileSync(file, "utf8");
  if (!source.includes(`>${PAGE_TEXT}<`))
    fail(`${PAGE_FILE} no longer shows "${PAGE_TEXT}": update this check`);
  fs.writeFileSync(file, source.replace(`>${PAGE_TEXT}<`, `>${marker}<`));

  const log2 = await start(dir, port, "start-2", async () => {
    const page = await get(port, "/");
    if (page.status !== 503 || !page.text.includes(BUILDING_TEXT))
      fail(`start-2: during the rebuild / answered ${page.status} without "${BUILDING_TEXT}"`);
    say("start-2: during the rebuild / answered 503 with the building page");
  });
  if (!log2().includes("[strata] meanwhile http://"))
    fail("start-2 did not serve the building page during the rebuild");
  if (!log2().includes("[strata] the sources changed since the last build"))
    fail("start-2 did not say that the sources changed and it rebuilds");
  const page2 = await get(port, "/rebuild-check-no-such-page");
  if (page2.status !== 404 || !page2.text.includes(marker))
    fail(`start-2: the 404 page (${page2.status}) does not show the changed text "${marker}"`);
  await stop(dir);
  say(`passed in ${Math.round((performance.now() - t0) / 1000)} s`);
}

/**
 * `kill -9` of the app server (`next start`, a child of scripts/start.mjs): npm start says so, starts it again, and
 * the signed-in home answers again — as the execution service is restarted.
 */
async function killAppServer(dir, port, cookie, log) {
  const startPid = JSON.parse(fs.readFileSync(path.join(dir, ".strata", "server.json"), "utf8")).pid;
  const children = fs.readFileSync(`/proc/${startPid}/task/${startPid}/children`, "utf8").trim().split(/\s+/);
  const next = children.find((pid) => {
    try {
      // `next start` renames itself (process.title: "next-server (v…)"), which rewrites its command line.
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
      return cmdline.startsWith("next-server") || cmdline.includes("next/dist/bin/next\0start");
    } catch {
      return false;
    }
  });
  if (!next)
    fail(`start-1: no next start process among the children of scripts/start.mjs (${children.join(", ")})`);
  process.kill(-Number(next), "SIGKILL");
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const restarted = () => /the app server stopped \(killed by SIGKILL\); starting it again/.test(log());
  const runningTwice = () => (log().match(/\[strata\] Strata is running at /g) ?? []).length >= 2;
  while (!(restarted() && runningTwice())) {
    if (Date.now() > deadline)
      fail("start-1: after kill -9 of the app server, npm start did not serve again");
    await sleep(500);
  }
  const home = await get(port, "/", cookie);
  if (home.status !== 200) fail(`start-1: after the app server's restart / answered ${home.status}`);
  say("start-1: kill -9 of the app server: restarted, and / answers again");
}

async function cleanup() {
  await stop().catch(() => undefined);
  if (tmp && process.env.STRATA_CHECK_KEEP !== "1") fs.rmSync(tmp, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    cleanup().finally(() => process.exit(1));
  });

main().then(
  async () => {
    await cleanup();
    process.exit(0);
  },
  async (error) => {
    console.error(`[check-rebuild] FAILED: ${error instanceof CheckFailed ? error.message : error?.stack}`);
    const logFile = lastLog;
    if (logFile && fs.existsSync(logFile))
      console.error(
        `--- last lines of ${path.basename(logFile)} ---\n${fs.readFileSync(logFile, "utf8").split("\n").slice(-40).join("\n")}`,
      );
    await cleanup();
    process.exit(1);
  },
);
