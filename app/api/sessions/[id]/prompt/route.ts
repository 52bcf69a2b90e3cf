import { z } from "zod";
import { runPrompt } from "@/lib/agent/session-run";
import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { ApiError, notFound, route } from "@/lib/http/errors";
import { encodeSse } from "@/lib/http/sse";
import { finishRun, heartbeatRun, RunActiveError, startRun } from "@/lib/session/runs";
import { getSession } from "@/lib/session/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ text: z.string().min(1).max(200_000), model: z.string().max(200).optional() });
const ABORT_POLL_MS = 500;

/** Run a prompt and stream the run's events as SSE. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await request.json().catch(() => ({})));
  const scope = new DbScope();
  let runId: string;
  try {
    if (!isUuid(id) || !(await getSession(scope, id))) throw notFound(`Session ${id}`);
    runId = await startRun(scope, id).catch((error) => {
      throw error instanceof RunActiveError ? new ApiError(409, "run_active", error.message) : error;
    });
  } finally {
    await scope.release();
  }

  const abort = new AbortController();
  request.signal.addEventListener("abort", () => abort.abort());
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let open = true;
      const send = async (event: Parameters<typeof encodeSse>[0]) => {
        if (open) controller.enqueue(encodeSse(event));
      };
      const poll = setInterval(async () => {
        const s = new DbScope();
        try {
          if (await heartbeatRun(s, runId)) abort.abort();
        } catch {
          // a missed heartbeat is retried on the next tick
        } finally {
          await s.release();
        }
      }, ABORT_POLL_MS);
      try {
        await runPrompt({
          sessionId: id,
          text: body.text,
          modelRef: body.model,
          env: process.env,
          emit: send,
          signal: abort.signal,
        });
      } catch (error) {
        await send({ type: "error", message: error instanceof Error ? error.message : String(error) });
      } finally {
        clearInterval(poll);
        const s = new DbScope();
        await finishRun(s, runId).catch(() => undefined);
        await s.release();
        open = false;
        controller.close();
      }
    },
    cancel() {
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
});
