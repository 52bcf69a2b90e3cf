// Starting the execution service (lib/exec/service/main.ts) as a child process: `node --import tsx …` with the
// caller's environment (the app's database settings) and a fresh random token, waiting for its `ready` message.
// Used by `npm start` (scripts/start.mjs, which restarts it when it crashes), the Vitest global setup and the
// e2e stack. The token reaches only the child and the app, through their environments (never a log line).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** How long the service may take to start (tsx compiles the workers' modules on a cold cache) (ms). */
const START_TIMEOUT_MS = 90_000;
/** Restarts allowed within {@link RESTART_WINDOW_MS} before it is left stopped (a crash loop). */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

/**
 * The variables the service (and its workers) may see: the system's (path, locale, temp dirs, proxies, CA
 * certificates), the database's (`DATABASE_URL`, `STRATA_DB_*`: the workers read and write the projects' files) and
 * the service's own settings (`STRATA_EXEC_*`, `STRATA_SANDBOX*`, `STRATA_GIT_IMPORT_*`). Everything else — provider
 * keys, the auth and secrets keys, any other credential of the app's environment — stays out: the service runs
 * untrusted interpreters.
 */
const SERVICE_ENV =
  /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TEMP|TMP|NODE_ENV|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|DATABASE_URL|STRATA_DB_[A-Z_]+|STRATA_EXEC_[A-Z_]+|STRATA_SANDBOX(_[A-Z_]+)?|STRATA_GIT_IMPORT_[A-Z_]+)$/;

/**
 * `env` reduced to the variables of {@link SERVICE_ENV}.
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string>}
 */
export function serviceEnv(env) {
  return Object.fromEntries(
    Object.entries(env).filter(([name, value]) => value !== undefined && SERVICE_ENV.test(name)),
  );
}

function spawnOnce(env, port, onOutput) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "lib/exec/service/main.ts")], {
    cwd: root,
    env: { ...env, STRATA_EXEC_PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  child.stdout.on("data", (c) => onOutput(c, "stdout"));
  child.stderr.on("data", (c) => onOutput(c, "stderr"));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the execution service did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.on("message", (message) => {
      if (message?.type !== "ready") return;
      clearTimeout(timer);
      resolve(message.url);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the execution service exited while starting (${signal ?? `exit code ${code}`}); its output is above`,
        ),
      );
    });
  });
  return { child, ready };
}

/**
 * Start the service. `env`: the environment it gets, reduced by {@link serviceEnv} (DATABASE_URL,
 * STRATA_DB_PROXY…; never a provider key or the app's secrets; STRATA_EXEC_TOKEN is replaced by a random one). `restart`: start it again, on the same port, when it exits unexpectedly (at most
 * 5 times a minute; each restart is logged with `log`, which gets lines without a prefix). Output lines go to `output` (default: this process's
 * stderr).
 * @returns `{ url, token, env: { STRATA_EXEC_URL, STRATA_EXEC_TOKEN }, pid, close() }`
 * @throws Error when it does not start (exit or 90 s), with why.
 */
export async function startExecService({
  env = process.env,
  restart = false,
  log = (line) => console.error(`[strata] ${line}`),
  output,
} = {}) {
  const token = randomBytes(24).toString("base64url");
  const childEnv = { ...serviceEnv(env), STRATA_EXEC_TOKEN: token };
  const write = output ?? ((chunk) => process.stderr.write(chunk));
  let current = spawnOnce(childEnv, Number(env.STRATA_EXEC_PORT ?? 0), write);
  const url = await current.ready;
  const port = Number(new URL(url).port);
  let closing = false;
  const restarts = [];
  const watch = () => {
    current.child.once("exit", (code, signal) => {
      if (closing || !restart) return;
      const now = Date.now();
      while (restarts.length > 0 && restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length >= MAX_RESTARTS) {
        log(
          `the execution service stopped (${signal ?? `exit code ${code}`}) ${MAX_RESTARTS} times within a minute; it is not restarted again, so shell commands fail until Strata is restarted (see its output above)`,
        );
        return;
      }
      restarts.push(now);
      log(`the execution service stopped (${signal ?? `exit code ${code}`}); restarting it on ${url}`);
      current = spawnOnce(childEnv, port, write);
      current.ready.then(watch, (error) => log(`the execution service did not restart: ${error.message}`));
    });
  };
  watch();
  return {
    url,
    token,
    env: { STRATA_EXEC_URL: url, STRATA_EXEC_TOKEN: token },
    /** The service process's id now (a restart changes it). */
    get pid() {
      return current.child.pid;
    },
    /** Stop it (SIGTERM, then SIGKILL after 5 s). */
    async close() {
      closing = true;
      const { child } = current;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
