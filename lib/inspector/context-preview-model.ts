/**
 * The context preview's input errors and its model choice (context-preview.ts re-exports both): the model a
 * preview targets, resolved with placeholder keys so no real key is needed.
 */
import { StrataError } from "@/lib/errors/strata-error";
import { captureEnv } from "@/lib/llm/capture-payload";
import { type Env, getAvailableModels, type Model, modelRef, resolvePromptModel } from "@/lib/llm/models";

/** A preview input the caller has to fix (unknown leaf or tool, cwd not a directory). */
export class ContextPreviewError extends StrataError {
  constructor(message: string) {
    super(400, "preview_failed", message);
    this.name = "ContextPreviewError";
  }
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
  const model = resolvePromptModel(ref, sessionModel, configured);
  if (!model && ref !== undefined)
    throw new ContextPreviewError(
      `Unknown model: ${ref}. Available: ${getAvailableModels(configured).map(modelRef).join(", ")}`,
    );
  if (!model) throw new ContextPreviewError("No model available");
  return model;
}
