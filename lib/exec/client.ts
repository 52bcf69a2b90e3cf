/**
 * The HTTP client of the execution service (lib/exec/service, started by `npm start`): how a route handler
 * runs a shell command, a sandbox command or an archive import without burning its own event loop.
 *
 * Wire: `POST ${STRATA_EXEC_URL}/v1/<kind>` with `authorization: Bearer ${STRATA_EXEC_TOKEN}`; a JSON body
 * (`/v1/shell`, `/v1/sandbox`) or the archive's bytes (`/v1/import?workspaceId=…&root=…&fileName=…`); the answer
 * is an envelope `{ status: 200, result }` / `{ status, error }` (headers sent at once, the body when the command
 * ends, after a `{"waiting":…}` line when it had to wait for a worker, handed to the call's `onWait`;
 * lib/exec/service/server.ts), or for a refused request `{ error }` with 4xx. Aborting the caller's signal aborts
 * the request; the service sees the connection close and kills the command. Edge-safe: `fetch` only.
 */
import {
  type ExecResult,
  ExecUnavailableError,
  type Executor,
  type ExecWait,
  type ImportExecRequest,
} from "./types";

/** The service's answer to a request it could not serve (bad request, handler failure, a crashed worker). */
export class ExecRequestError extends Error {
  override name = "ExecRequestError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** An `Executor` that can also unpack archives (`/v1/import`). */
export interface ExecClient extends Executor {
  /** Where it sends requests (`STRATA_EXEC_URL`). */
  readonly url: string;
  /**
   * Unpack `archive` into `request.root` of the workspace VFS in the service. The answer's JSON shape is the
   * import handler's (lib/exec/service/handlers/import.ts).
   */
  importArchive<T = unknown>(
    request: ImportExecRequest,
    archive: Uint8Array,
    signal?: AbortSignal,
  ): Promise<T>;
  /**
   * `GET /v1/health`: the handler kinds, the worker pool's size, commands running (`busy`, on pooled workers and on
   * workers of their own) and waiting (`queued`), worker processes now (`processes`).
   */
  health(
    signal?: AbortSignal,
  ): Promise<{ kinds: string[]; workers: number; busy: number; queued: number; processes: number }>;
}

const unavailable = (url: string, why: string) =>
  new ExecUnavailableError(
    `The execution service at ${url} is not reachable: ${why}. Start Strata with \`npm start\` (it starts the service and sets STRATA_EXEC_URL and STRATA_EXEC_TOKEN), or start it yourself with \`node --import tsx lib/exec/service/main.ts\` and point STRATA_EXEC_URL at it; unset STRATA_EXEC_URL to run shell commands in process.`,
  );

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");

/**
 * The envelope's text of a service answer (`x-strata-exec: envelope`), read as it streams: blank keep-alive lines
 * are skipped, a `{"waiting":…}` line goes to `onWait` when it arrives, the last other line is the envelope
 * (JSON on one line). Chunks are kept in a list, so a 16 MiB envelope is joined once.
 */
async function readEnvelope(response: Response, onWait?: (wait: ExecWait) => void): Promise<string> {
  if (!response.body) return "";
  const decoder = new TextDecoder();
  let parts: string[] = [];
  let envelope = "";
  const line = (text: string) => {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (!trimmed.startsWith('{"waiting":')) {
      envelope = trimmed;
      return;
    }
    try {
      onWait?.((JSON.parse(trimmed) as { waiting: ExecWait }).waiting);
    } catch {
      // a notice that does not parse is no answer: skipped
    }
  };
  const take = (chunk: string) => {
    const pieces = chunk.split("\n");
    for (let i = 0; i < pieces.length - 1; i++) {
      parts.push(pieces[i]);
      line(parts.join(""));
      parts = [];
    }
    parts.push(pieces[pieces.length - 1]);
  };
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read())
    take(decoder.decode(read.value, { stream: true }));
  take(decoder.decode());
  line(parts.join(""));
  return envelope;
}

/**
 * The client of the service named by `env.STRATA_EXEC_URL` (token `env.STRATA_EXEC_TOKEN`), or undefined when
 * the URL is unset (shell commands then run in process). Errors of its calls: `ExecUnavailableError` (cannot
 * connect; the message says what to do), `ExecRequestError` (the service answered with an error), the signal's
 * `AbortError` (aborted by the caller).
 */
export function createExecutor(env: Record<string, string | undefined>): ExecClient | undefined {
  const base = env.STRATA_EXEC_URL?.trim().replace(/\/+$/, "");
  if (!base) return undefined;
  const token = env.STRATA_EXEC_TOKEN ?? "";
  const call = async <T>(
    path: string,
    init: RequestInit,
    signal?: AbortSignal,
    onWait?: (wait: ExecWait) => void,
  ): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
        signal,
      });
    } catch (error) {
      if (signal?.aborted || isAbort(error)) throw error;
      const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : undefined;
      throw unavailable(base, cause?.message ?? String(error));
    }
    const enveloped = response.ok && response.headers.get("x-strata-exec") === "envelope";
    const text = enveloped ? await readEnvelope(response, onWait) : await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (enveloped) {
      const envelope = body as { status?: unknown; result?: unknown; error?: unknown } | undefined;
      if (envelope?.status === 200) return envelope.result as T;
      const status = typeof envelope?.status === "number" ? envelope.status : 502;
      throw new ExecRequestError(
        typeof envelope?.error === "string" ? envelope.error : "the execution service sent no answer",
        status,
      );
    }
    if (!response.ok) {
      const message =
        body && typeof body === "object" && "error" in body && typeof body.error === "string"
          ? body.error
          : `the execution service answered ${response.status}: ${text.slice(0, 200)}`;
      throw new ExecRequestError(message, response.status);
    }
    if (body === undefined) throw new ExecRequestError("the execution service sent no JSON answer", 502);
    return body as T;
  };
  const json = (kind: string, request: unknown, signal?: AbortSignal, onWait?: (wait: ExecWait) => void) =>
    call<ExecResult>(
      `/v1/${kind}`,
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) },
      signal,
      onWait,
    );
  return {
    url: base,
    shell: (request, signal, onWait) => json("shell", request, signal, onWait),
    sandbox: (request, signal, onWait) => json("sandbox", request, signal, onWait),
    importArchive: (request, archive, signal) => {
      const query = new URLSearchParams({
        workspaceId: request.workspaceId,
        ...(request.userId ? { userId: request.userId } : {}),
        root: request.root,
        fileName: request.fileName,
      });
      return call(
        `/v1/import?${query}`,
        {
          method: "POST",
          headers: { "content-type": "application/octet-stream" },
          body: archive as unknown as BodyInit,
        },
        signal,
      );
    },
    health: (signal) => call("/v1/health", { method: "GET" }, signal),
  };
}
