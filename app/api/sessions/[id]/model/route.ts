import { z } from "zod";
import { setSessionModel } from "@/lib/agent-session/session-model";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, route } from "@/lib/http/errors";
import { resolveModel } from "@/lib/llm/models";
import { sessionProviderEnv } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ model: z.string().min(1).max(200) });

/**
 * Switch the session's model (pi `setModel`): records a `model_change` entry now. Body `{ model: "provider/id" }`;
 * answers `{ model }`. 400 `model_unavailable` for a model the server has no key for; 409 while a run holds the session.
 */
export const PUT = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  return withSession(request, id, "write", async ({ scope }) => {
    const body = input.parse(Body);
    // Workspace secrets win over the server environment (lib/secrets).
    const model = resolveModel(body.model, await sessionProviderEnv(scope, id, process.env));
    if (!model) throw new ApiError(400, "model_unavailable", `Model ${body.model} is not available.`);
    const ref = await setSessionModel(scope, id, model);
    return Response.json({ model: `${ref.provider}/${ref.modelId}` });
  });
});
