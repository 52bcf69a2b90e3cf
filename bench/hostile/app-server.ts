/**
 * The built app as a separate process for the hostile-request bench: `next start` on a free loopback port,
 * pointed at the bench database and the mock provider, plus the probe that measures how long a concurrent
 * `GET /api/config` waits while a hostile request is in flight.
 *
 * Requires a build (`npx next build`); the bench says so and skips the section when there is none.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startProxyProcess } from "./db-proxy-process";
import { startBenchExecService } from "./exec-service";

const root = path.resolve(import.meta.dirname, "../..");

/** A running app server. */
export interface AppServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** The local owner's session cookie (`name=value`), signed in as a browser on the embedded default is. */
  cookie: string;
  /** Whether `GET /api/config` answers 200 within 5 s. */
  alive(): Promise<boolean>;
  /**
   * The app process's event-loop delay since the previous call (or since it started), measured inside it by
   * bench/hostile/loop-lag.mjs; `undefined` when the server was started without `measureLag`.
   */
  loopLag(): Promise<LoopLag | undefined>;
  close(): Promise<void>;
}

/** Event-loop delay of one process over a window: how late its 10 ms timer fired (the 10 ms taken off), ms. */
export interface LoopLag {
  pid: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU time the process used over the window (ms, all its threads). */
  cpuMs: number;
  /** How long its main thread waited for a CPU while runnable over the window (ms; Linux schedstat, else NaN). */
  runQueueMs: number;
}

const LAG_RESOLUTION_MS = 10;

/** Local mode on loopback (as `npm start` on its embedded default) with bench-only secrets; `env` may override. */
const BENCH_AUTH_ENV = {
  STRATA_AUTH_MODE: "local",
  HOST: "127.0.0.1",
  BETTER_AUTH_SECRET: "strata-bench-only-secret-0123456789abcdef",
  STRATA_SECRETS_KEY: Buffer.from("strata-bench-only-secrets-key-01").toString("base64"),
};

/**
 * Sign in as the local owner (`GET /api/auth/local/sign-in`, local mode) and return the session cookie.
 * @throws Error when the answer is not a redirect with a session cookie.
 */
async function signIn(url: string): Promise<string> {
  const answer = await send(`${url}/api/auth/local/sign-in?callbackURL=%2Fapi%2Fme`);
  const cookies = [answer.headers["set-cookie"] ?? []].flat().map((c) => c.split(";")[0]);
  const session = cookies.filter((c) => c.includes("session_token"));
  if (answer.status !== 302 || session.length === 0)
    throw new Error(
      `local sign-in answered ${answer.status} without a session cookie: ${answer.text.slice(0, 300)}`,
    );
  return cookies.join("; ");
}

/** Whether `.next` holds a production build. */
export function hasBuild(): boolean {
  return fs.existsSync(path.join(root, ".next", "BUILD_ID"));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One HTTP exchange: status, headers and the body as text (bodies are small in this bench). */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
}

/**
 * Send one request with `node:http` (so `Host` and `Origin` can be set freely). `body` is sent with its exact
 * length unless `chunked` is set. Rejects only on a socket error (e.g. the server died).
 */
export function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
    timeoutMs?: number;
    /** Keep the answer's last this many bytes (at least) instead of its first 64 KiB. */
    keepTail?: number;
  } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const body = typeof options.body === "string" ? Buffer.from(options.body) : options.body;
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "GET",
        // A fresh connection each time: a kept-alive socket the server closed while idle fails as a hang-up.
        agent: false,
        headers: {
          ...(body ? { "content-length": String(body.byteLength) } : {}),
          ...options.headers,
        },
        timeout: options.timeoutMs ?? 120_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          // Keep at most 64 KiB of an answer: enough for any error body, bounded for streams…
          if (!options.keepTail) {
            if (size - chunk.length < 65_536) chunks.push(chunk);
            return;
          }
          // …or its last `keepTail` bytes (a stream's end, where a command's outcome is).
          chunks.push(chunk);
          kept += chunk.length;
          while (chunks.length > 1 && kept - chunks[0].length >= options.keepTail)
            kept -= chunks.shift()?.length ?? 0;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("request timed out")));
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

/**
 * Start the database proxy in its own process (for `env.DATABASE_URL`), the execution service (unless `env` names
 * one in STRATA_EXEC_URL) and `next start` with `env` and their endpoints on a free port, as `npm start` runs them,
 * sign in as the local owner, and wait until `/api/config` answers 200. `close()` stops all three. `measureLag`: preload bench/hostile/loop-lag.mjs so `loopLag()` reports the app's event-loop delay.
 * @throws Error when the service does not start, or the server exits or does not answer within 60 s.
 */
export async function startAppServer(
  env: NodeJS.ProcessEnv,
  options: { measureLag?: boolean } = {},
): Promise<AppServer> {
  // The database proxy in a process of its own, as under `npm start` (see db-proxy-process.ts).
  const database = env.DATABASE_URL ? new URL(env.DATABASE_URL) : undefined;
  const proxy = database
    ? await startProxyProcess(`${database.hostname}:${database.port || 5432}`)
    : undefined;
  if (proxy) env = { ...env, STRATA_DB_PROXY: proxy.endpoint };
  const exec = env.STRATA_EXEC_URL ? undefined : await startBenchExecService(env);
  const port = await freePort();
  const lagDir = options.measureLag ? fs.mkdtempSync(path.join(os.tmpdir(), "strata-bench-lag-")) : undefined;
  const lagEnv: Record<string, string> = lagDir
    ? {
        STRATA_BENCH_LAG_DIR: lagDir,
        NODE_OPTIONS:
          `${env.NODE_OPTIONS ?? ""} --import ${path.join(import.meta.dirname, "loop-lag.mjs")}`.trim(),
      }
    : {};
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    // Its own process group: `next start` runs the server in a child (`next-server`), which must stop with it.
    {
      cwd: root,
      env: { ...BENCH_AUTH_ENV, ...env, ...exec?.env, ...lagEnv, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr = (stderr + String(chunk)).slice(-4000);
  });
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  let last = "no answer yet";
  let cookie = "";
  // Up: `/api/config` answers 200 to the signed-in owner (before the sign-in, any answer below 500 will do).
  const alive = async () => {
    try {
      const answer = await send(`${url}/api/config`, {
        timeoutMs: 5000,
        headers: cookie ? { Cookie: cookie } : {},
      });
      last = `${answer.status} ${answer.text.slice(0, 300)}`;
      return cookie ? answer.status === 200 : answer.status < 500;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
      return false;
    }
  };
  const deadline = Date.now() + 60_000;
  while (!(await alive())) {
    if (exited || Date.now() > deadline) {
      await exec?.close();
      await proxy?.close();
      throw new Error(
        `next start ${exited ? "exited" : "did not answer within 60 s"} (GET /api/config: ${last}): ${stderr}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const loopLag = async (): Promise<LoopLag | undefined> => {
    if (!lagDir || !child.pid || exited) return undefined;
    const file = path.join(lagDir, `${child.pid}.json`);
    fs.rmSync(file, { force: true });
    process.kill(child.pid, "SIGUSR2");
    for (const until = Date.now() + 5000; Date.now() < until; ) {
      if (fs.existsSync(file)) {
        const raw = JSON.parse(fs.readFileSync(file, "utf8")) as LoopLag;
        const less = (ms: number) => Math.max(0, Math.round((ms - LAG_RESOLUTION_MS) * 10) / 10);
        return { ...raw, p50Ms: less(raw.p50Ms), p99Ms: less(raw.p99Ms), maxMs: less(raw.maxMs) };
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return undefined;
  };
  try {
    cookie = await signIn(url);
    if (!(await alive())) throw new Error(`GET /api/config answered ${last} after the sign-in`);
  } catch (error) {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
    await exec?.close();
    await proxy?.close();
    throw error;
  }
  return {
    url,
    port,
    cookie,
    alive,
    loopLag,
    close: async () => {
      if (lagDir) fs.rmSync(lagDir, { recursive: true, force: true });
      const gone = exited ? Promise.resolve() : new Promise((resolve) => child.once("exit", resolve));
      const group = (signal: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, signal);
        } catch {
          /* the group is gone already */
        }
      };
      group("SIGTERM");
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5000))]);
      // The server child may outlive the parent's exit: the whole group goes.
      group("SIGKILL");
      await exec?.close();
      await proxy?.close();
    },
  };
}

/** What the probe saw while `fn` ran. */
export interface ProbeResult<T> {
  result: T | Error;
  /** Worst latency of a `GET /api/config` started while `fn` ran, ms (a failed probe counts as its wait). */
  worstMs: number;
  /** Every probe's latency, ms, in the order sent. */
  samples: number[];
  probes: number;
  failedProbes: number;
}

/**
 * Run `fn` while a loop sends `GET /api/config` (with `headers`: the signed-in owner's cookie) one after another
 * (each waits for the previous one), and report the latencies of the probes started before `fn` settled; an
 * answer other than 200 counts as failed.
 */
export async function probeWhile<T>(
  url: string,
  fn: () => Promise<T>,
  headers: Record<string, string> = {},
): Promise<ProbeResult<T>> {
  let running = true;
  let worstMs = 0;
  const samples: number[] = [];
  let probes = 0;
  let failedProbes = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const answer = await send(`${url}/api/config`, { timeoutMs: 60_000, headers });
        if (answer.status !== 200) failedProbes++;
      } catch {
        failedProbes++;
      }
      const ms = performance.now() - started;
      worstMs = Math.max(worstMs, ms);
      samples.push(ms);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  let result: T | Error;
  try {
    result = await fn();
  } catch (error) {
    result = error instanceof Error ? error : new Error(String(error));
  }
  running = false;
  await loop;
  return { result, worstMs, samples, probes, failedProbes };
}
