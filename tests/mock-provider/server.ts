/**
 * The mock LLM provider: a loopback `node:http` server speaking the streaming wire formats of Anthropic
 * Messages (`POST /v1/messages`) and OpenAI Responses (`POST /v1/responses`), driven by queues of scripted
 * turns, with a control API under `/__mock/`. Every queue, request log, gate and OpenAI item memory belongs to
 * a **scope**: a provider request's scope is named by its API key (`mock-scope-<id>` inside the key: see
 * ./scope.ts), a control call's by `?scope=<id>`; without either it is the `default` scope. Tests that run side
 * by side each script and read their own scope. See README.md.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import {
  type AnthropicValidationOptions,
  anthropicErrorBody,
  renderAnthropicTurn,
  validateAnthropicRequest,
} from "./anthropic";
import { CHAT_FRAME, isChatDelta, renderChatTurn, validateChatRequest } from "./chat";
import { OpenAIState, openaiErrorBody, renderOpenAITurn, validateOpenAIRequest } from "./openai";
import { DEFAULT_SCOPE, isScopeId, scopeOfKey } from "./scope";
import {
  DEFAULT_TURN_TEXT,
  type ProviderKind,
  type RecordedRequest,
  type SseFrame,
  type StreamTiming,
  type Turn,
  turnSchema,
  ValidationError,
} from "./types";

/** Options of {@link startMockProvider}. */
export interface MockProviderOptions {
  /** Port to listen on (127.0.0.1); 0 or omitted picks a free one. */
  port?: number;
  /** Anthropic validator options (e.g. `strictThinking: false`). */
  anthropic?: AnthropicValidationOptions;
}

/** One scope's script, log and gates (the `default` scope's are also on {@link MockProvider} itself). */
export interface MockScopeHandle {
  /** Append turns to the script queue. Throws on a malformed turn. */
  enqueue(...turns: Turn[]): void;
  /** Clear the queue, the recorded requests, opened gates and remembered OpenAI items. */
  reset(): void;
  /** Requests received on provider endpoints so far (a copy). */
  readonly requests: RecordedRequest[];
  /** Number of scripted turns not consumed yet. */
  readonly pending: number;
  /** Open a gate: streams held on it continue; later holds on it pass straight through until `reset()`. */
  release(gate: string): void;
}

/** A running mock provider; its own methods act on the `default` scope. */
export interface MockProvider extends MockScopeHandle {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The scope named `id` (created on first use): what requests whose API key names it see. */
  scope(id: string): MockScopeHandle;
  /** Stop the server, cutting open streams. */
  close(): Promise<void>;
}

const SECRET_HEADERS = new Set([
  "authorization",
  "x-api-key",
  "api-key",
  "cookie",
  "set-cookie",
  "proxy-authorization",
]);

const turnsBodySchema = z.object({ turns: z.array(turnSchema) });
const releaseBodySchema = z.object({ gate: z.string().min(1) });

class Gates {
  private readonly opened = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();

  wait(gate: string): Promise<void> {
    if (this.opened.has(gate)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(gate) ?? [];
      list.push(resolve);
      this.waiters.set(gate, list);
    });
  }

  release(gate: string): void {
    this.opened.add(gate);
    for (const resolve of this.waiters.get(gate) ?? []) resolve();
    this.waiters.delete(gate);
  }

  /** Forget opened gates; streams still waiting are released so nothing hangs. */
  clear(): void {
    for (const list of this.waiters.values()) for (const resolve of list) resolve();
    this.waiters.clear();
    this.opened.clear();
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function publicHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || SECRET_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** The request's API key: `x-api-key`, or the `Authorization: Bearer` token. */
function apiKeyOf(req: IncomingMessage): string | undefined {
  const header = req.headers["x-api-key"];
  return (
    (Array.isArray(header) ? header[0] : header) ??
    /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]
  );
}

/** SHA-256 (hex) of the request's API key; never the key. */
function credentialSha256(req: IncomingMessage): string | undefined {
  const key = apiKeyOf(req);
  return key === undefined ? undefined : createHash("sha256").update(key).digest("hex");
}

/** One scope's state: its script queue, request log, gates and the OpenAI items it emitted. */
class ScopeState {
  readonly queue: Turn[] = [];
  recorded: RecordedRequest[] = [];
  seq = 0;
  readonly gates = new Gates();
  readonly openai = new OpenAIState();

  /** A new record numbered in this scope's arrival order, appended to its log. */
  record(fields: Omit<RecordedRequest, "seq">): RecordedRequest {
    this.seq += 1;
    const record: RecordedRequest = { seq: this.seq, ...fields };
    this.recorded.push(record);
    return record;
  }

  enqueue(...turns: Turn[]): void {
    for (const turn of turns) this.queue.push(turnSchema.parse(turn));
  }

  reset(): void {
    this.queue.length = 0;
    this.recorded = [];
    this.seq = 0;
    this.gates.clear();
    this.openai.clear();
  }

  handle(): MockScopeHandle {
    const state = this;
    return {
      enqueue: (...turns) => state.enqueue(...turns),
      reset: () => state.reset(),
      get requests() {
        return [...state.recorded];
      },
      get pending() {
        return state.queue.length;
      },
      release: (gate) => state.gates.release(gate),
    };
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Epoch milliseconds with sub-millisecond precision (comparable across processes on one machine). */
const now = () => performance.timeOrigin + performance.now();

/** A content delta frame (Anthropic `content_block_delta`, OpenAI `response.*.delta`). */
const isDeltaFrame = (frame: SseFrame) =>
  frame.event === "content_block_delta" ||
  (frame.event === CHAT_FRAME && isChatDelta(frame.data)) ||
  (frame.event.startsWith("response.") && frame.event.endsWith(".delta"));

/**
 * Start the mock provider on 127.0.0.1. Resolves once it listens.
 *
 * @example
 * const mock = await startMockProvider();
 * mock.enqueue({ text: ["Hel", "lo"] });
 * const anthropic = createAnthropic({ baseURL: `${mock.url}/v1`, apiKey: "test" });
 */
export async function startMockProvider(options: MockProviderOptions = {}): Promise<MockProvider> {
  const scopes = new Map<string, ScopeState>();
  const scopeNamed = (id: string): ScopeState => {
    let state = scopes.get(id);
    if (!state) {
      state = new ScopeState();
      scopes.set(id, state);
    }
    return state;
  };
  const defaultScope = scopeNamed(DEFAULT_SCOPE);

  async function stream(
    res: ServerResponse,
    scope: ScopeState,
    record: RecordedRequest,
    frames: SseFrame[],
    turn: Turn,
    timing: StreamTiming,
  ): Promise<void> {
    record.timing = timing;
    let closed = false;
    const onClose = new Promise<void>((resolve) => {
      res.on("close", () => {
        closed = true;
        if (!res.writableFinished) record.aborted = true;
        resolve();
      });
    });
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      [record.provider === "anthropic" ? "request-id" : "x-request-id"]: `req_mock_${record.seq}`,
    });
    res.flushHeaders();
    const atHeaders = turn.holdAt === "headers";
    // A provider that answers 200 and then sends nothing: no byte of the body until the gate opens.
    if (atHeaders && turn.holdUntilReleased)
      await Promise.race([scope.gates.wait(turn.holdUntilReleased), onClose]);
    for (const [i, frame] of frames.entries()) {
      if (closed) return;
      if (i > 0 && turn.delayMs) await Promise.race([sleep(turn.delayMs), onClose]);
      if (closed) return;
      const text =
        frame.event === CHAT_FRAME
          ? `data: ${typeof frame.data === "string" ? frame.data : JSON.stringify(frame.data)}\n\n`
          : `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
      if (isDeltaFrame(frame)) {
        // the write callback runs once the bytes are handed to the socket (Node corks a response's writes
        // until the next tick, so the time of the `write` call would be too early for a burst of frames)
        timing.deltas += 1;
        res.write(text, () => {
          timing.lastDeltaAt = now();
          timing.firstDeltaAt ??= timing.lastDeltaAt;
        });
      } else res.write(text);
      if (frame.hold && turn.holdUntilReleased && !atHeaders)
        await Promise.race([scope.gates.wait(turn.holdUntilReleased), onClose]);
    }
    if (!closed)
      res.end(() => {
        timing.endedAt = now();
      });
  }

  async function handleProvider(
    req: IncomingMessage,
    res: ServerResponse,
    provider: ProviderKind,
  ): Promise<void> {
    const timing: StreamTiming = { receivedAt: now(), deltas: 0 };
    const path = (req.url ?? "/").split("?")[0];
    const rawBody = await readBody(req);
    const body = parseJson(rawBody);
    const scope = scopeNamed(scopeOfKey(apiKeyOf(req)));
    const record = scope.record({
      provider,
      method: req.method ?? "GET",
      path,
      headers: publicHeaders(req),
      credentialSha256: credentialSha256(req),
      body,
      rawBody,
      status: 200,
    });
    const errorBody = provider === "anthropic" ? anthropicErrorBody : openaiErrorBody;

    if (req.method !== "POST") {
      record.status = 405;
      sendJson(res, 405, errorBody(405, `Method ${req.method} not allowed`, "invalid_request_error"));
      return;
    }
    try {
      if (provider === "anthropic") validateAnthropicRequest(body, options.anthropic);
      else if (provider === "openai-chat") validateChatRequest(body);
      else validateOpenAIRequest(body, scope.openai);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      record.status = 400;
      record.validationError = error.message;
      sendJson(res, 400, errorBody(400, error.message));
      return;
    }
    const isStreaming =
      typeof body === "object" && body !== null && (body as { stream?: unknown }).stream === true;
    if (!isStreaming) {
      record.status = 400;
      record.validationError = "the mock provider only implements stream: true";
      sendJson(res, 400, errorBody(400, record.validationError));
      return;
    }
    const turn = scope.queue.shift() ?? { text: DEFAULT_TURN_TEXT };
    record.turn = turn;
    if (turn.error) {
      record.status = turn.error.status;
      sendJson(res, turn.error.status, errorBody(turn.error.status, turn.error.message, turn.error.type));
      return;
    }
    const frames =
      provider === "anthropic"
        ? renderAnthropicTurn(turn, body)
        : provider === "openai-chat"
          ? renderChatTurn(turn, body, `chatcmpl_${scope.openai.next()}`)
          : renderOpenAITurn(turn, body, scope.openai);
    await stream(res, scope, record, frames, turn, timing);
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const action = url.pathname.slice("/__mock/".length);
    const scopeId = url.searchParams.get("scope") ?? DEFAULT_SCOPE;
    if (!isScopeId(scopeId))
      return sendJson(res, 400, { error: `not a scope id: ${JSON.stringify(scopeId)}` });
    const scope = scopeNamed(scopeId);
    const body = parseJson(await readBody(req));
    if (req.method === "GET" && action === "requests")
      return sendJson(res, 200, { requests: scope.recorded });
    if (req.method === "POST" && action === "reset") {
      scope.reset();
      // A scope other than the default is forgotten once reset (a test's teardown): the map does not grow.
      if (scopeId !== DEFAULT_SCOPE) scopes.delete(scopeId);
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "POST" && action === "script") {
      const parsed = turnsBodySchema.safeParse(body);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      scope.queue.push(...parsed.data.turns);
      return sendJson(res, 200, { ok: true, pending: scope.queue.length });
    }
    if (req.method === "POST" && action === "release") {
      const parsed = releaseBodySchema.safeParse(body);
      if (!parsed.success) return sendJson(res, 400, { error: z.prettifyError(parsed.error) });
      scope.gates.release(parsed.data.gate);
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "GET" && action === "pending")
      return sendJson(res, 200, { pending: scope.queue.length });
    sendJson(res, 404, { error: `unknown control action ${req.method} /__mock/${action}` });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    const path = url.pathname;
    let work: Promise<void>;
    if (path.startsWith("/__mock/")) work = handleControl(req, res, url);
    else if (path === "/v1/messages") work = handleProvider(req, res, "anthropic");
    else if (path === "/v1/responses") work = handleProvider(req, res, "openai");
    else if (path === "/v1/chat/completions") work = handleProvider(req, res, "openai-chat");
    else {
      work = readBody(req).then((text) => {
        scopeNamed(scopeOfKey(apiKeyOf(req))).record({
          provider: "unknown",
          method: req.method ?? "GET",
          path,
          headers: publicHeaders(req),
          body: parseJson(text),
          status: 404,
        });
        sendJson(res, 404, {
          error: { type: "not_found_error", message: `mock provider: no route ${path}` },
        });
      });
    }
    work.catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: "api_error", message: String(error) } });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const byDefault = defaultScope.handle();
  return {
    url: `http://127.0.0.1:${port}`,
    enqueue: byDefault.enqueue,
    reset: byDefault.reset,
    release: byDefault.release,
    get requests() {
      return byDefault.requests;
    },
    get pending() {
      return byDefault.pending;
    },
    scope: (id) => {
      if (!isScopeId(id)) throw new Error(`not a mock scope id: ${JSON.stringify(id)}`);
      return scopeNamed(id).handle();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const scope of scopes.values()) scope.gates.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * A client of the HTTP control API, for a process (e.g. Playwright) that scripts a provider which another
 * process (the app server) calls.
 */
export function mockProviderClient(url: string, scope: string = DEFAULT_SCOPE) {
  if (!isScopeId(scope)) throw new Error(`not a mock scope id: ${JSON.stringify(scope)}`);
  const call = async (method: "GET" | "POST", action: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${url}/__mock/${action}?scope=${scope}`, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json();
    if (!res.ok)
      throw new Error(`mock provider control ${action} failed (${res.status}): ${JSON.stringify(json)}`);
    return json;
  };
  return {
    /** The scope this client scripts and reads. */
    scope,
    /** Append turns to the scope's queue. */
    script: async (...turns: Turn[]): Promise<void> => {
      await call("POST", "script", { turns });
    },
    /** Clear the scope's queue, requests and gates (a scope other than the default is then forgotten). */
    reset: async (): Promise<void> => {
      await call("POST", "reset", {});
    },
    /** Open a gate of the scope. */
    release: async (gate: string): Promise<void> => {
      await call("POST", "release", { gate });
    },
    /** The scope's recorded requests. */
    requests: async (): Promise<RecordedRequest[]> =>
      ((await call("GET", "requests")) as { requests: RecordedRequest[] }).requests,
    /** Turns of the scope's queue not consumed yet. */
    pending: async (): Promise<number> => ((await call("GET", "pending")) as { pending: number }).pending,
  };
}

/** A {@link mockProviderClient}. */
export type MockProviderClient = ReturnType<typeof mockProviderClient>;
