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
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** A running app server. */
export interface AppServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** Whether `GET /api/config` answers 200 within 5 s. */
  alive(): Promise<boolean>;
  close(): Promise<void>;
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
        res.on("data", (chunk: Buffer) => {
          // Keep at most 64 KiB of an answer: enough for any error body, bounded for streams.
          if (size < 65_536) chunks.push(chunk);
          size += chunk.length;
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
 * Start `next start` with `env` on a free port and wait until `/api/config` answers.
 * @throws Error when the server exits or does not answer within 60 s.
 */
export async function startAppServer(env: NodeJS.ProcessEnv): Promise<AppServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    // Its own process group: `next start` runs the server in a child (`next-server`), which must stop with it.
    {
      cwd: root,
      env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
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
  const alive = async () => {
    try {
      return (await send(`${url}/api/config`, { timeoutMs: 5000 })).status === 200;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 60_000;
  while (!(await alive())) {
    if (exited) throw new Error(`next start exited: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`next start did not answer within 60 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    port,
    alive,
    close: async () => {
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
    },
  };
}

/** What the probe saw while `fn` ran. */
export interface ProbeResult<T> {
  result: T | Error;
  /** Worst latency of a `GET /api/config` started while `fn` ran, ms (a failed probe counts as its wait). */
  worstMs: number;
  probes: number;
  failedProbes: number;
}

/**
 * Run `fn` while a loop sends `GET /api/config` one after another (each waits for the previous one), and
 * report the worst latency among the probes started before `fn` settled.
 */
export async function probeWhile<T>(url: string, fn: () => Promise<T>): Promise<ProbeResult<T>> {
  let running = true;
  let worstMs = 0;
  let probes = 0;
  let failedProbes = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await send(`${url}/api/config`, { timeoutMs: 60_000 });
      } catch {
        failedProbes++;
      }
      worstMs = Math.max(worstMs, performance.now() - started);
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
  return { result, worstMs, probes, failedProbes };
}
