import { z } from "zod";
import { PromptImagesSchema } from "@/lib/agent/prompt-images-schema";
import { runUserBash } from "@/lib/agent/session-bash";
import { queuePrompt } from "@/lib/agent/session-queue";
import { runPrompt } from "@/lib/agent/session-run";
import { parseUserBash } from "@/lib/agent/user-bash";
import { DbScope } from "@/lib/db/client";
import { isDbTrouble } from "@/lib/db/errors";
import { isUuid } from "@/lib/db/ids";
import { PROMPT_WITH_IMAGES_JSON_LIMIT, readJson } from "@/lib/http/body";
import { ApiError, notFound, route } from "@/lib/http/errors";
import { runEventStream } from "@/lib/http/run-stream";
import { RunActiveError, startPromptRun, startRun } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({
  text: z
    .string()
    .max(200_000)
    .refine((text) => text.trim() !== "", "must contain more than white space"),
  model: z.string().max(200).optional(),
  streamingBehavior: z.enum(["steer", "followUp"]).optional(),
  /** pi's `prompt(text, { images })`: `{ type: "image", data: <base64>, mimeType }[]`. */
  images: PromptImagesSchema.optional(),
});

/** Queued texts find the run within a few tries even when runs start and end around them. */
const MAX_ATTEMPTS = 5;

/**
 * Run a prompt (or a `!command`) and stream its events as SSE. While another request's agent run is live: a
 * `!command` runs alongside it; a prompt with `streamingBehavior` is queued for that run (202); without, 409.
 * While a compaction, a shell command or a branch summary holds the session: 409.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await readJson(request, { limit: PROMPT_WITH_IMAGES_JSON_LIMIT }));
  const bash = parseUserBash(body.text);
  if (!isUuid(id)) throw notFound(`Session ${id}`);
  const scope = new DbScope();
  let run: { id: string; returned: string[] } | undefined;
  let handedOver = false;
  try {
    for (let attempt = 0; run === undefined; attempt++) {
      try {
        // Only a prompt run hands back texts an earlier run left (a shell stream has no composer to fill).
        run = bash
          ? { id: await startRun(scope, id, "bash"), returned: [] }
          : await startPromptRun(scope, id);
      } catch (error) {
        if (!(error instanceof RunActiveError)) throw error;
        // pi 6.1: refused during compaction (before any queueing).
        if (error.kind === "compaction") throw error;
        if (error.kind !== "prompt") throw error;
        if (bash) break;
        if (!body.streamingBehavior || attempt >= MAX_ATTEMPTS) throw error;
        const outcome = await queuePrompt(scope, {
          sessionId: id,
          kind: body.streamingBehavior,
          text: body.text,
          images: body.images,
        }).catch((e) => {
          // The database's trouble is a 503, not the text's fault.
          if (isDbTrouble(e)) throw e;
          throw new ApiError(400, "not_queueable", e instanceof Error ? e.message : String(e));
        });
        if (outcome.status === "queued")
          return Response.json(
            { queued: { id: outcome.queued.id, kind: outcome.queued.kind, text: outcome.queued.inputText } },
            { status: 202 },
          );
        if (outcome.status === "handled") return Response.json({ handled: true });
        // The run ended meanwhile: start one (or queue into the one that just started).
      }
    }
    // A prompt run continues on this connection (a shell command opens its own while it works).
    handedOver = !bash;
  } finally {
    if (!handedOver) await scope.release();
  }
  const runId = run?.id;
  return runEventStream({
    request,
    sessionId: id,
    runId,
    returned: run?.returned,
    run: (emit, signal, { clientGone }) =>
      bash
        ? runUserBash({ sessionId: id, command: bash, emit, signal, runId })
        : runPrompt({
            sessionId: id,
            text: body.text,
            images: body.images,
            modelRef: body.model,
            env: process.env,
            emit,
            signal,
            runId,
            scope,
            clientGone,
          }),
  });
});
