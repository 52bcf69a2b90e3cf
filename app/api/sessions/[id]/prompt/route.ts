import { z } from "zod";
import { runUserBash } from "@/lib/agent/session-bash";
import { queuePrompt } from "@/lib/agent/session-queue";
import { runPrompt } from "@/lib/agent/session-run";
import { parseUserBash } from "@/lib/agent/user-bash";
import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { ApiError, notFound, route } from "@/lib/http/errors";
import { runEventStream } from "@/lib/http/run-stream";
import { RunActiveError, startRun } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({
  text: z.string().min(1).max(200_000),
  model: z.string().max(200).optional(),
  streamingBehavior: z.enum(["steer", "followUp"]).optional(),
});

/**
 * Run a prompt (or a `!command`) and stream its events as SSE. While another run is live: a `!command`
 * runs alongside it; a prompt with `streamingBehavior` is queued for that run (202); without, 409.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await request.json().catch(() => ({})));
  const bash = parseUserBash(body.text);
  if (!isUuid(id)) throw notFound(`Session ${id}`);
  const scope = new DbScope();
  let runId: string | undefined;
  let handedOver = false;
  try {
    for (let attempt = 0; runId === undefined; attempt++) {
      try {
        runId = await startRun(scope, id, bash ? "bash" : "prompt");
      } catch (error) {
        if (!(error instanceof RunActiveError)) throw error;
        if (bash) break;
        // pi 6.1: refused during compaction (before any queueing); else queued only with a behaviour.
        if (error.kind === "compaction" || !body.streamingBehavior || attempt > 0) throw error;
        const outcome = await queuePrompt(scope, {
          sessionId: id,
          kind: body.streamingBehavior,
          text: body.text,
        }).catch((e) => {
          throw new ApiError(400, "not_queueable", e instanceof Error ? e.message : String(e));
        });
        if (outcome.status === "queued")
          return Response.json(
            { queued: { id: outcome.queued.id, kind: outcome.queued.kind, text: outcome.queued.inputText } },
            { status: 202 },
          );
        if (outcome.status === "handled") return Response.json({ handled: true });
        // The run ended meanwhile: run the text as a prompt.
      }
    }
    // A prompt run continues on this connection (a shell command opens its own while it works).
    handedOver = !bash;
  } finally {
    if (!handedOver) await scope.release();
  }
  return runEventStream({
    request,
    sessionId: id,
    runId,
    run: (emit, signal) =>
      bash
        ? runUserBash({ sessionId: id, command: bash, emit, signal, runId })
        : runPrompt({
            sessionId: id,
            text: body.text,
            modelRef: body.model,
            env: process.env,
            emit,
            signal,
            runId,
            scope,
          }),
  });
});
