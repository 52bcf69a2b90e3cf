import { z } from "zod";
import { admitPrompt } from "@/lib/agent-session/prompt-admission";
import { PromptImagesSchema } from "@/lib/agent-session/prompt-images-schema";
import { runUserBash } from "@/lib/agent-session/session-bash";
import { runPrompt } from "@/lib/agent-session/session-run";
import { parseUserBash } from "@/lib/agent-session/user-bash";
import { limitPrompts } from "@/lib/auth/rate-limit";
import { DbScope } from "@/lib/db/client";
import { withSession } from "@/lib/http/access";
import { PROMPT_WITH_IMAGES_JSON_LIMIT, readJsonInput } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { runEventStream } from "@/lib/http/run-stream";
import type { Env } from "@/lib/llm/models";
import { workspaceProviderEnv } from "@/lib/secrets";

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

/**
 * Start a prompt (or a `!command`) as a run owned by the server and stream its events as SSE (`id: <seq>`,
 * `run_start` … `run_end`); the run goes on when the response is closed. While another request's agent run is live: a
 * `!command` runs alongside it; a prompt with `streamingBehavior` is queued for that run (202); without, 409.
 * While a compaction, a shell command or a branch summary holds the session: 409.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: PROMPT_WITH_IMAGES_JSON_LIMIT });
  // Authorised, validated and counted against the caller's prompt limit first (that scope is released); the run
  // gets its own. A refused body is not counted.
  const { caller, body, session, project } = await withSession(
    request,
    id,
    "write",
    async ({ scope, caller, session, project }) => {
      const body = input.parse(Body);
      await scope.run((db) => limitPrompts(db, caller.userId, process.env));
      return { caller, body, session, project };
    },
  );
  const bash = parseUserBash(body.text);
  // The caller's agent dir and trust apply, and the caller authors the run's checkpoint commits.
  const actor = { userId: caller.userId, author: { name: caller.name, email: caller.email } };
  const scope = new DbScope();
  let run: { id: string; returned: string[]; leafId?: string | null } | undefined;
  let handedOver = false;
  let env: Env = process.env;
  try {
    // Workspace secrets win over the server environment (lib/secrets); read before the run is admitted.
    if (!bash) env = await workspaceProviderEnv(scope, project.workspaceId, process.env);
    const admission = await admitPrompt(scope, {
      sessionId: id,
      bash: bash !== undefined,
      text: body.text,
      images: body.images,
      streamingBehavior: body.streamingBehavior,
      userId: caller.userId,
    });
    if (admission.kind === "queued") return Response.json({ queued: admission.queued }, { status: 202 });
    if (admission.kind === "handled") return Response.json({ handled: true });
    run = admission.run;
    // A prompt run continues on this connection (a shell command opens its own while it works).
    handedOver = !bash;
  } finally {
    if (!handedOver) await scope.release();
  }
  const runId = run?.id;
  // The run belongs to the server: it goes on when this response is closed (lib/runs, docs/runs.md).
  return runEventStream({
    sessionId: id,
    runId,
    kind: bash ? "bash" : "prompt",
    mode: bash ? "bash" : "prompt",
    returned: run?.returned,
    work: ({ emit, signal, watched }) =>
      bash
        ? runUserBash({ sessionId: id, command: bash, emit, signal, runId, ...actor })
        : runPrompt({
            sessionId: id,
            ...actor,
            text: body.text,
            images: body.images,
            modelRef: body.model,
            env,
            emit,
            signal,
            runId,
            scope,
            // The rows authorisation read (the one read of `sessions`), with the leaf the run lock found.
            loaded: {
              session: { ...session, leafId: run?.leafId === undefined ? session.leafId : run.leafId },
              project,
            },
            clientGone: () => !watched(),
          }),
  });
});
