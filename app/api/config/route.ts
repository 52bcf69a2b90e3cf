import { route } from "@/lib/http/errors";
import { toModelInfo } from "@/lib/http/views";
import { defaultModel, getAvailableModels, modelConfigHelp } from "@/lib/llm/models";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Models configured on the server (never their keys) and how to configure one. */
export const GET = route(async () => {
  const env = process.env;
  const models = getAvailableModels(env);
  const preferred = defaultModel(env);
  return Response.json({
    models: models.map(toModelInfo),
    defaultModel: preferred ? `${preferred.provider}/${preferred.id}` : null,
    configured: models.length > 0,
    help: modelConfigHelp(),
  });
});
