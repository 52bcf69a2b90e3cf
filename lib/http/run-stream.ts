/**
 * The SSE response of a run (a prompt or a `!command`): events as `text/event-stream`, and while the run
 * holds the session's lock, a heartbeat every 500 ms that also picks up a cross-instance abort request and
 * reports the session's waiting steer/follow-up texts as pi's `queue_update`. When the run ends the lock is
 * released and any text still queued for it is handed back in a `queue_returned` event.
 */
import type { RunEvent } from "@/lib/agent/session-run";
import { DbScope } from "@/lib/db/client";
import { closeRun, listQueued } from "@/lib/session/queue";
import { heartbeatRun, RUN_STALE_MS } from "@/lib/session/runs";
import { encodeSse } from "./sse";

const POLL_MS = 500;
/** Pause between two tries to release the lock of a run that ended while the database was unreachable (ms). */
const CLOSE_RETRY_MS = 1000;

/**
 * A run that ended while the database was unreachable could not release its lock: keep trying in the
 * background (the stream is already closed) until the database is back, at most {@link RUN_STALE_MS} (after
 * which the lock is stale and taken over anyway). Queued texts stay for the next prompt run to hand back.
 */
async function closeWhenBack(sessionId: string, runId: string): Promise<void> {
  const deadline = Date.now() + RUN_STALE_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, CLOSE_RETRY_MS));
    const s = new DbScope();
    try {
      await closeRun(s, sessionId, runId, { handBack: false });
      return;
    } catch {
      // still unreachable
    } finally {
      await s.release();
    }
  }
}

/**
 * @param options.runId the run lock the request holds (none: no heartbeat, no queue reports).
 * @param options.run the work; gets the event sink and an abort signal (client gone, or abort requested).
 */
export function runEventStream(options: {
  request: Request;
  sessionId: string;
  runId?: string;
  /** Texts an earlier run left undelivered, handed back first (`queue_returned`). */
  returned?: string[];
  run: (
    emit: (event: RunEvent) => Promise<void>,
    signal: AbortSignal,
    context: { clientGone(): boolean },
  ) => Promise<void>;
}): Response {
  const { request, sessionId, runId } = options;
  const abort = new AbortController();
  let open = true;
  const clientGone = () => !open || request.signal.aborted;
  request.signal.addEventListener("abort", () => abort.abort());
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      // Never let a gone client stop the run's bookkeeping: events to a closed stream are dropped.
      const send = async (event: RunEvent) => {
        if (!open) return;
        try {
          controller.enqueue(encodeSse(event));
        } catch {
          open = false;
        }
      };
      // Headers and a first byte at once, before any slow work (an SSE comment; parsers skip it).
      controller.enqueue(new TextEncoder().encode(": strata\n\n"));
      if (options.returned && options.returned.length > 0)
        await send({ type: "queue_returned", texts: options.returned });
      let lastQueue = JSON.stringify({ steering: [], followUp: [] });
      let polling = false;
      const poll = runId
        ? setInterval(async () => {
            if (polling) return;
            polling = true;
            const s = new DbScope();
            try {
              if (await heartbeatRun(s, runId)) abort.abort();
              const queue = await listQueued(s, sessionId);
              const json = JSON.stringify(queue);
              if (json !== lastQueue) {
                lastQueue = json;
                await send({ type: "queue_update", ...queue });
              }
            } catch {
              // a missed heartbeat is retried on the next tick
            } finally {
              await s.release();
              polling = false;
            }
          }, POLL_MS)
        : undefined;
      try {
        await options.run(send, abort.signal, { clientGone });
      } catch (error) {
        await send({ type: "error", message: error instanceof Error ? error.message : String(error) });
      } finally {
        if (poll) clearInterval(poll);
        if (runId) {
          const s = new DbScope();
          try {
            const texts = await closeRun(s, sessionId, runId, { handBack: !clientGone() });
            if (texts.length > 0) await send({ type: "queue_returned", texts });
            if (lastQueue !== JSON.stringify({ steering: [], followUp: [] }))
              await send({ type: "queue_update", steering: [], followUp: [] });
          } catch {
            // The database is unreachable: release the lock once it is back (else it goes stale).
            void closeWhenBack(sessionId, runId);
          } finally {
            await s.release();
          }
        }
        if (open) {
          open = false;
          controller.close();
        }
      }
    },
    cancel() {
      open = false;
      abort.abort();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
