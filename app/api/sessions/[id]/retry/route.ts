import { z } from "zod";
import { modelUnavailableMessage, runPrompt } from "@/lib/agent-session/session-run";
import { limitPrompts } from "@/lib/auth/rate-limit";
import { DbScope } from "@/lib/db/client";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, route } from "@/lib/http/errors";
import { runEventStream } from "@/lib/http/run-stream";
import { type Env, resolveModel } from "@/lib/llm/models";
import { sessionProviderEnv } from "@/lib/secrets";
import { startPromptRun } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ model: z.string().max(200).optional() });

/**
 * Re-run the session's failed last turn (its last message is an assistant message with `stopReason` "error" or
 * "aborted"): the failed answer stays in the session, the agent continues from the messages before it (pi's
 * `agent.continue()`, as its auto-retry does) as a run owned by the server (`run_start` with mode `retry`) and
 * streams its events as SSE, like `POST …/prompt`.
 * 400 `model_unavailable` (`Model <ref> is not available.`, as `PUT …/model`) for a `model` the server does not
 * have; 409 while another run holds the session; a last turn that did not fail ends the stream with an `error` event.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT, empty: {} });
  // Authorised, validated and counted against the caller's prompt limit first (that scope is released); the run
  // gets its own. A refused body is not counted.
  const { caller, body } = await withSession(request, id, "write", async ({ scope, caller }) => {
    const body = input.parse(Body);
    await scope.run((db) => limitPrompts(db, caller.userId, process.env));
    return { caller, body };
  });
  // The caller's agent dir and trust apply, and the caller authors the run's checkpoint commits.
  const actor = { userId: caller.userId, author: { name: caller.name, email: caller.email } };
  const scope = new DbScope();
  let run: { id: string; returned: string[] };
  let env: Env;
  try {
    // Workspace secrets win over the server environment (lib/secrets).
    env = await sessionProviderEnv(scope, id, process.env);
    if (body.model !== undefined && !resolveModel(body.model, env))
      throw new ApiError(400, "model_unavailable", modelUnavailableMessage(body.model));
    run = await startPromptRun(scope, id, "prompt", "retry");
  } catch (error) {
    await scope.release();
    throw error;
  }
  // The run belongs to the server: it goes on when this response is closed (lib/runs, docs/runs.md).
  return runEventStream({
    sessionId: id,
    runId: run.id,
    kind: "prompt",
    mode: "retry",
    returned: run.returned,
    work: ({ emit, signal, watched }) =>
      runPrompt({
        sessionId: id,
        ...actor,
        text: "",
        retry: true,
        modelRef: body.model,
        env,
        emit,
        signal,
        runId: run.id,
        scope,
        clientGone: () => !watched(),
      }),
  });
});
