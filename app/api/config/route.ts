import { withCaller, withProject, withWorkspace } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { toModelInfo } from "@/lib/http/views";
import { defaultModel, type Env, getAvailableModels, modelConfigHelp } from "@/lib/llm/models";
import { workspaceProviderEnv } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

function answer(env: Env): Response {
  const models = getAvailableModels(env);
  const preferred = defaultModel(env);
  return Response.json({
    models: models.map(toModelInfo),
    defaultModel: preferred ? `${preferred.provider}/${preferred.id}` : null,
    configured: models.length > 0,
    help: modelConfigHelp(),
  });
}

/**
 * Models configured (never their keys) and how to configure one. With `?project=<id>` (or `?workspace=<id>`): the
 * models of that project's workspace, whose secrets win over the server environment (read access needed: 401/404
 * as the project's routes); without: the server environment's (any signed-in caller; 401 otherwise).
 */
export const GET = route(async (request: Request) => {
  const params = new URL(request.url).searchParams;
  const project = params.get("project");
  const workspace = params.get("workspace");
  if (project)
    return withProject(request, project, "read", async ({ scope, project: p }) =>
      answer(await workspaceProviderEnv(scope, p.workspaceId, process.env)),
    );
  if (workspace)
    return withWorkspace(request, workspace, "read", async ({ scope, access }) =>
      answer(await workspaceProviderEnv(scope, access.workspaceId, process.env)),
    );
  return withCaller(request, async () => answer(process.env));
});
