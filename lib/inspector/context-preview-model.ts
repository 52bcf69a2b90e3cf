/**
 * The context preview's input errors and its model choice (context-preview.ts re-exports both): the model a
 * preview targets, resolved with placeholder keys so no real key is needed.
 */
import { captureEnv } from "@/lib/llm/capture-payload";
import {
  defaultModel,
  type Env,
  getAvailableModels,
  type Model,
  modelRef,
  resolveModel,
} from "@/lib/llm/models";

/** A preview input the caller has to fix (unknown leaf or tool, cwd not a directory). */
export class ContextPreviewError extends Error {
  override name = "ContextPreviewError";
}

/**
 * The model `ref` names (with every provider configured by placeholder keys: no real key is needed), the
 * session's model when `ref` is absent and it resolves (a live run's rule), else the default model.
 * @throws ContextPreviewError `Unknown model: <ref>. Available: <refs>`.
 */
export function resolvePreviewModel(
  ref: string | undefined,
  sessionModel: { provider: string; modelId: string } | null,
  env: Env,
): Model {
  const configured = captureEnv(env);
  if (ref !== undefined) {
    const model = resolveModel(ref, configured);
    if (!model)
      throw new ContextPreviewError(
        `Unknown model: ${ref}. Available: ${getAvailableModels(configured).map(modelRef).join(", ")}`,
      );
    return model;
  }
  const fromSession = sessionModel
    ? resolveModel(`${sessionModel.provider}/${sessionModel.modelId}`, configured)
    : undefined;
  const model = fromSession ?? defaultModel(configured);
  if (!model) throw new ContextPreviewError("No model available");
  return model;
}
