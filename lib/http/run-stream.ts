/**
 * The SSE responses of runs (docs/runs.md): the POST that starts a run streams it from the in-process
 * subscription of its owner, and `GET …/runs/:runId/events` replays and follows any run from Postgres. Both
 * frame every event as `id: <seq>\nevent: <type>\ndata: <json>\n\n` and send `: keep-alive` every 15 s. The run
 * itself is kept alive past the response with Next's `after()` (the platform's `waitUntil`): closing the
 * response only detaches this viewer.
 */
import { after } from "next/server";
import { AuthError } from "@/lib/auth/errors";
import {
  acquireFollowSlot,
  createOwnedRun,
  FOLLOW_RETRY_AFTER_S,
  followRun,
  type OwnedRunOptions,
  tooManyFollowsMessage,
} from "@/lib/runs";
import { SSE_HEADERS, SSE_KEEP_ALIVE_MS, sseComment, sseFrame } from "./sse";

/**
 * Keep `task` running after the response (Next's `after()`, i.e. the platform's `waitUntil`). Outside a
 * request scope (tests, scripts) the task simply runs on; a failure is logged, never thrown.
 */
export function keepAlive(task: Promise<unknown>): void {
  const logged = task.catch((error) => console.error("[strata] a run failed outside its response:", error));
  try {
    after(logged);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!message.includes("outside a request scope"))
      console.warn(`[strata] after() is not available (${message}); the run goes on in this process.`);
  }
}

/** A byte stream fed by `attach` (which gets the enqueue and close functions), with the keep-alive comment. */
function sseStream(
  attach: (send: (bytes: Uint8Array) => void, end: () => void) => () => void,
): ReadableStream {
  let detach: (() => void) | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let open = true;
  const stop = () => {
    open = false;
    if (keepAlive) clearInterval(keepAlive);
    detach?.();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (bytes: Uint8Array) => {
        if (!open) return;
        try {
          controller.enqueue(bytes);
        } catch {
          stop();
        }
      };
      const end = () => {
        if (!open) return;
        stop();
        controller.close();
      };
      // Headers and a first byte at once, before any slow work (an SSE comment; parsers skip it).
      send(sseComment("strata"));
      keepAlive = setInterval(() => send(sseComment("keep-alive")), SSE_KEEP_ALIVE_MS);
      detach = attach(send, end);
    },
    cancel() {
      stop();
    },
  });
}

/**
 * Start a run owned by the server (lib/runs) and answer its events as SSE, `run_start` … `run_end`, from the
 * in-process subscription. The run goes on when the response is closed (a tab closed or reloaded).
 */
export function runEventStream(options: OwnedRunOptions): Response {
  const run = createOwnedRun(options);
  const body = sseStream((send, end) =>
    run.subscribe(({ seq, event, data }) => {
      send(sseFrame(event.type, data, seq));
      if (event.type === "run_end") end();
    }),
  );
  keepAlive(run.start());
  return new Response(body, { headers: SSE_HEADERS });
}

/**
 * Replay run `runId`'s events after `after` from Postgres, then follow it live until `run_end`; ends early when
 * `signal` aborts (the client went away) or the response is cancelled. The stream holds one of caller
 * `callerId`'s follow slots (lib/runs/follow-limit.ts) until it ends.
 * @throws AuthError 429 `too_many_streams` (with `retryAfter`) when the caller already holds the most streams.
 */
export function followEventStream(
  runId: string,
  after: number,
  signal: AbortSignal,
  callerId: string,
): Response {
  const release = acquireFollowSlot(callerId);
  if (!release) throw new AuthError(429, "too_many_streams", tooManyFollowsMessage(), FOLLOW_RETRY_AFTER_S);
  const body = sseStream((send, end) => {
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    void (async () => {
      try {
        for await (const row of followRun({ runId, after, signal: stop.signal }))
          send(sseFrame(row.type, row.data, row.seq));
      } catch (error) {
        // The database failed for longer than its retry budget: say so; the client re-attaches from its cursor.
        const message = error instanceof Error ? error.message : String(error);
        send(sseFrame("error", JSON.stringify({ type: "error", message })));
      } finally {
        signal.removeEventListener("abort", onAbort);
        release();
        end();
      }
    })();
    return () => stop.abort();
  });
  return new Response(body, { headers: SSE_HEADERS });
}
