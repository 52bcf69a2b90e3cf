/**
 * The execution service's HTTP server (127.0.0.1 only): `POST /v1/<kind>` runs a command of a registered kind
 * (handlers/index.ts) in the worker pool, in its tenant's turn (the request's `workspaceId` and `userId`);
 * `GET /v1/health` answers the kinds, the pool's size and load (`busy`, `queued`, `processes`). Every request
 * needs `authorization: Bearer <token>` (401 otherwise). Bodies: JSON up to {@link MAX_JSON_BYTES}, raw bytes
 * (`application/octet-stream`, with the request in the query) up to {@link MAX_RAW_BYTES}; larger → 413.
 * A closed connection aborts its command. A command stopped at a limit answers 200 with an `ExecResult` whose
 * `killed` is set.
 *
 * Once a command is accepted (authorised, a known kind, a body that parses), the answer's headers go out at
 * once (200, `x-strata-exec: envelope`) and the body is `{ status: 200, result }` or `{ status, error }` when the
 * command ends, on one line, preceded by a newline every {@link KEEP_ALIVE_MS} while it waits or runs and, when it
 * has to wait for a worker, by one line `{"waiting":{running,yours}}` (`ExecWait`). Before that, a refusal is a plain
 * `{ error }` with its status (401, 404, 405, 413, 400). Node-only.
 */
import { timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { KILLED_EXIT_CODE, resolveLimits } from "@/lib/exec/limits";
import type { ExecLimits, ExecResult } from "@/lib/exec/types";
import type { Tenant } from "./fair-queue";
import { HANDLERS } from "./handlers";
import { ExecPool, type PoolOptions, type PoolOutcome } from "./pool";

/** Largest JSON body (bytes): a script with its environment. */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;
/** Largest raw body (bytes): an archive upload. */
export const MAX_RAW_BYTES = 512 * 1024 * 1024;
/** While a command runs, a newline is written this often (ms). */
const KEEP_ALIVE_MS = 15_000;

export interface ExecService {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  pool: ExecPool;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Past this many bytes of a refused body (times the limit), the connection is cut instead of drained. */
const DRAIN_FACTOR = 4;

/**
 * The request's body, up to `max` bytes. A larger one is refused with 413 once it has been read to its end
 * (drained and dropped), so the client, still writing, reads the answer instead of a reset connection; past
 * {@link DRAIN_FACTOR} × `max` the connection is cut (see `send`).
 */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooBig = () => new HttpError(413, `The request body is over ${max} bytes.`);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number(req.headers["content-length"] ?? 0) > max;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size > max) {
        over = true;
        chunks.length = 0;
      }
      if (!over) chunks.push(chunk);
      else if (size > DRAIN_FACTOR * max) {
        req.pause();
        reject(tooBig());
      }
    });
    req.on("end", () => (over ? reject(tooBig()) : resolve(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  const close = status === 413;
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...(close ? { connection: "close" } : {}),
  });
  // A body far over the limit is not read to its end: the connection goes once the answer is out.
  res.end(text, () => {
    if (close && !res.req.complete) res.req.destroy();
  });
};

/** The HTTP answer of a pool outcome; a result gets the pool's measured usage. */
function answer(outcome: PoolOutcome): { status: number; body: unknown } {
  if (outcome.type === "failed") return { status: outcome.status, body: { error: outcome.error } };
  if (outcome.type === "done") {
    const result = outcome.result;
    if (result && typeof result === "object" && "usage" in result) {
      (result as ExecResult).usage = outcome.usage;
    }
    return { status: 200, body: result };
  }
  const stopped: ExecResult = {
    output: "",
    outputBytes: 0,
    exitCode: outcome.type === "killed" ? KILLED_EXIT_CODE : 1,
    timedOut: outcome.type === "timedOut",
    aborted: outcome.type === "aborted",
    ...(outcome.type === "killed" ? { killed: outcome.kill } : {}),
    changedPaths: [],
    usage: outcome.usage,
  };
  return { status: 200, body: stopped };
}

/** Whose command a request is: its `workspaceId` and `userId` (strings; absent → ""). */
function tenantOf(request: unknown): Tenant {
  const fields = (request ?? {}) as { workspaceId?: unknown; userId?: unknown };
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  return { workspaceId: text(fields.workspaceId), userId: text(fields.userId) };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Answer one request: the health, or a command of a registered kind run in `pool` and answered in its envelope.
 * A refusal before the command is accepted (or an error after) is sent as `{ error }` with its status.
 */
async function handleRequest(
  pool: ExecPool,
  token: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  try {
    if (!tokenMatches(req.headers.authorization, token))
      throw new HttpError(
        401,
        "The execution service needs the token it was started with (STRATA_EXEC_TOKEN).",
      );
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/v1/health") {
      send(res, 200, {
        kinds: Object.keys(HANDLERS),
        workers: pool.size,
        ...pool.load,
        processes: pool.processes,
      });
      return;
    }
    const kind = /^\/v1\/([a-z][a-z0-9-]*)$/.exec(url.pathname)?.[1];
    if (!kind || !Object.hasOwn(HANDLERS, kind))
      throw new HttpError(404, `No such execution endpoint: ${req.method} ${url.pathname}`);
    if (req.method !== "POST") throw new HttpError(405, `${url.pathname} takes POST`);
    const { raw, request, bytes } = await readCommandRequest(req, url);
    await runEnveloped(pool, res, kind, raw, request, bytes);
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    send(res, status, { error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * A command request's body: raw bytes (`application/octet-stream`, the request in the query) or JSON.
 * @throws HttpError 413 for a body over its limit, 400 for one that is not JSON.
 */
async function readCommandRequest(
  req: http.IncomingMessage,
  url: URL,
): Promise<{ raw: boolean; request: unknown; bytes: Uint8Array | undefined }> {
  const raw = /^application\/octet-stream\b/.test(req.headers["content-type"] ?? "");
  const body = await readBody(req, raw ? MAX_RAW_BYTES : MAX_JSON_BYTES);
  if (raw) {
    return {
      raw,
      request: Object.fromEntries(url.searchParams),
      bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
    };
  }
  try {
    return { raw, request: JSON.parse(body.toString("utf8")), bytes: undefined };
  } catch {
    throw new HttpError(400, "The request body is not JSON.");
  }
}

/**
 * Run an accepted command in `pool` and answer it in the envelope: the headers at once, a newline every
 * {@link KEEP_ALIVE_MS} and the waiting line while it waits or runs, then `{ status, result }` or `{ status, error }`.
 * A closed connection aborts the command.
 */
async function runEnveloped(
  pool: ExecPool,
  res: http.ServerResponse,
  kind: string,
  raw: boolean,
  request: unknown,
  bytes: Uint8Array | undefined,
): Promise<void> {
  const fields = (request ?? {}) as { limits?: Partial<ExecLimits>; timeoutMs?: unknown };
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  // The command may run for minutes (a sandbox: 300 s): answer the headers now and keep the body alive with
  // whitespace, so no client's headers or body timeout (undici: 300 s each) ends it first.
  res.writeHead(200, { "content-type": "application/json", "x-strata-exec": "envelope" });
  res.flushHeaders();
  const keepAlive = setInterval(() => res.write("\n"), KEEP_ALIVE_MS);
  const outcome = await pool.run(
    {
      kind,
      request,
      bytes,
      limits: resolveLimits(kind, raw ? undefined : fields.limits),
      timeoutMs: typeof fields.timeoutMs === "number" ? fields.timeoutMs : undefined,
      tenant: tenantOf(request),
    },
    controller.signal,
    // The caller's notice while the command waits for a worker: one line before the envelope.
    (wait) => res.write(`${JSON.stringify({ waiting: wait })}\n`),
  );
  clearInterval(keepAlive);
  const { status, body: out } = answer(outcome);
  res.end(JSON.stringify(status === 200 ? { status, result: out } : { status, ...(out as object) }));
}

/**
 * Start the service: the pool (`workers` worker processes, heap cap `memoryMb`, the sharing caps `perWorkspace`,
 * `perUser`, `maxProcesses` of pool.ts, defaults `defaultCaps`) and the HTTP server on 127.0.0.1:`port` (0: a free
 * port). Resolves once every worker has loaded its handlers.
 * @throws when the port is taken or a worker cannot start.
 */
export async function startExecService(
  options: {
    token: string;
    port?: number;
    workers: number;
    memoryMb?: number;
    log?: (line: string) => void;
  } & Pick<PoolOptions, "perWorkspace" | "perUser" | "maxProcesses">,
): Promise<ExecService> {
  const pool = new ExecPool({
    size: options.workers,
    memoryMb: options.memoryMb ?? resolveLimits("shell").memoryMb,
    perWorkspace: options.perWorkspace,
    perUser: options.perUser,
    maxProcesses: options.maxProcesses,
    log: options.log,
  });
  const server = http.createServer((req, res) => handleRequest(pool, options.token, req, res));
  await pool.ready();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pool,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await pool.close();
    },
  };
}
