/**
 * The model registry: a static catalog of current models per provider, which of them the server environment
 * makes available, and model references (`<provider>/<id>`). pi keeps the same information in its generated
 * `models.generated.ts` plus `~/.pi/agent/models.json`; Strata reads the server environment instead.
 */
import { z } from "zod";
import { MODEL_CATALOG, PER_MILLION } from "./model-catalog";
import { detectCompat, type ModelCompat } from "./model-compat";
/** The providers Strata talks to through the AI SDK. */
import { PROVIDER_ENV, type ProviderId } from "./provider-env";
import type { Api } from "./types";

export { detectCompat, MODEL_COMPAT_FLAGS, type ModelCompat } from "./model-compat";
export { PROVIDER_ENV, type ProviderId };

/** A model the agent can call (pi's `Model`, reduced to what Strata uses). */
export interface Model {
  /** The provider's model id, sent on the wire (e.g. `claude-sonnet-4-5`). */
  id: string;
  /** Human-readable name. */
  name: string;
  provider: ProviderId;
  /**
   * The wire API: the provider's (see {@link PROVIDER_API}), except that an `openai` model may use
   * `openai-completions` (OpenAI's Chat Completions, set with `"api"` in `STRATA_MODELS`).
   */
  api: Api;
  /** Whether the model can think (extended thinking / reasoning). */
  reasoning: boolean;
  input: ("text" | "image")[];
  /** Maximum input + output tokens. */
  contextWindow: number;
  /** Maximum output tokens of one response. */
  maxTokens: number;
  /** US dollars per million tokens. `cacheWrite` is 0 where the provider does not bill cache writes per token. */
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** pi's compatibility flags: detected from a Chat Completions model's base URL and set in `STRATA_MODELS`. */
  compat?: ModelCompat;
}

/** The wire APIs a provider can be used with (the first is its default, {@link PROVIDER_API}). */
export const PROVIDER_APIS: Record<ProviderId, readonly Api[]> = {
  anthropic: ["anthropic-messages"],
  openai: ["openai-responses", "openai-completions"],
  google: ["google-generative-ai"],
  mistral: ["mistral-conversations"],
  "openai-compatible": ["openai-completions"],
};

/** The wire API of each provider. */
export const PROVIDER_API: Record<ProviderId, Api> = {
  anthropic: "anthropic-messages",
  openai: "openai-responses",
  google: "google-generative-ai",
  mistral: "mistral-conversations",
  "openai-compatible": "openai-completions",
};

/** Provider order: the order of {@link getAvailableModels} and of the first-available default. */
export const PROVIDERS: readonly ProviderId[] = [
  "anthropic",
  "openai",
  "google",
  "mistral",
  "openai-compatible",
];

/** Environment map as seen by the registry (`process.env` or a route handler's env). */
export type Env = Record<string, string | undefined>;

/** A model configuration the user has to fix (bad `STRATA_MODELS`, unknown `STRATA_DEFAULT_MODEL`, missing key). */
export class ModelConfigError extends Error {
  override name = "ModelConfigError";
}

export { MODEL_CATALOG } from "./model-catalog";

/** Defaults of a custom model entry, as in pi's `models.json` custom models. */
const CUSTOM_DEFAULTS = {
  reasoning: false,
  input: ["text"] as ("text" | "image")[],
  contextWindow: 128_000,
  maxTokens: 16_384,
  cost: PER_MILLION(0, 0, 0, 0),
};

const compatSchema = z
  .object({
    supportsMidConvoSystemMessages: z.boolean().optional(),
    requiresReasoningContentOnAssistantMessages: z.boolean().optional(),
    supportsStore: z.boolean().optional(),
    supportsDeveloperRole: z.boolean().optional(),
    maxTokensField: z.enum(["max_tokens", "max_completion_tokens"]).optional(),
    requiresToolResultName: z.boolean().optional(),
    requiresAssistantAfterToolResult: z.boolean().optional(),
  })
  .strict();

const customModelSchema = z.object({
  provider: z.enum(["anthropic", "openai", "google", "mistral", "openai-compatible"]),
  id: z.string().min(1),
  api: z
    .enum([
      "anthropic-messages",
      "openai-responses",
      "openai-completions",
      "google-generative-ai",
      "mistral-conversations",
    ])
    .optional(),
  compat: compatSchema.optional(),
  name: z.string().min(1).optional(),
  reasoning: z.boolean().optional(),
  input: z.array(z.enum(["text", "image"])).optional(),
  contextWindow: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  cost: z
    .object({
      input: z.number().nonnegative().optional(),
      output: z.number().nonnegative().optional(),
      cacheRead: z.number().nonnegative().optional(),
      cacheWrite: z.number().nonnegative().optional(),
    })
    .optional(),
});

type CustomModel = z.infer<typeof customModelSchema>;

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** Whether the environment configures `provider` (its API key, or for openai-compatible its base URL, is set). */
export function isProviderConfigured(provider: ProviderId, env: Env): boolean {
  const vars = PROVIDER_ENV[provider];
  return nonEmpty(env[vars.requires === "apiKey" ? vars.apiKey : vars.baseURL]) !== undefined;
}

/** `STRATA_MODELS` parsed and validated; throws {@link ModelConfigError} with the reason when it is malformed. */
function parseCustomModels(env: Env): CustomModel[] {
  const raw = nonEmpty(env.STRATA_MODELS);
  if (raw === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ModelConfigError(`STRATA_MODELS is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = z.array(customModelSchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelConfigError(
      `STRATA_MODELS must be a JSON array of models with "provider" and "id": ${issue?.path.join(".") || "(root)"}: ${issue?.message}`,
    );
  }
  for (const [index, entry] of parsed.data.entries()) {
    if (entry.api !== undefined && !PROVIDER_APIS[entry.provider].includes(entry.api)) {
      throw new ModelConfigError(
        `STRATA_MODELS: ${index}.api: provider "${entry.provider}" speaks ${PROVIDER_APIS[entry.provider].map((api) => `"${api}"`).join(" or ")}, not "${entry.api}"`,
      );
    }
  }
  return parsed.data;
}

/** Apply a custom entry over a base model (or over the custom defaults when it is new). */
function applyCustom(base: Model | undefined, custom: CustomModel): Model {
  const start: Model = base ?? {
    id: custom.id,
    name: custom.id,
    provider: custom.provider,
    api: PROVIDER_API[custom.provider],
    ...CUSTOM_DEFAULTS,
    input: [...CUSTOM_DEFAULTS.input],
    cost: { ...CUSTOM_DEFAULTS.cost },
  };
  const compat = custom.compat ? { ...start.compat, ...custom.compat } : start.compat;
  return {
    ...start,
    api: custom.api ?? start.api,
    ...(compat ? { compat } : {}),
    name: custom.name ?? start.name,
    reasoning: custom.reasoning ?? start.reasoning,
    input: custom.input ?? start.input,
    contextWindow: custom.contextWindow ?? start.contextWindow,
    maxTokens: custom.maxTokens ?? start.maxTokens,
    cost: { ...start.cost, ...custom.cost },
  };
}

/**
 * `model` with the compat flags detected from its base URL ({@link detectCompat}) under its own, which win flag by
 * flag (pi's `getCompat`); unchanged when nothing is detected.
 */
function withDetectedCompat(model: Model, baseURL: string | undefined): Model {
  const detected = detectCompat(model, baseURL);
  if (Object.keys(detected).length === 0) return model;
  return { ...model, compat: { ...detected, ...model.compat } };
}

/**
 * The models of every configured provider, in provider order (anthropic, openai, google, mistral, openai-compatible),
 * each provider's catalog models first, then its custom additions in `STRATA_MODELS` order.
 *
 * - Anthropic, OpenAI, Google and Mistral are configured by their API key (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`,
 *   `GOOGLE_GENERATIVE_AI_API_KEY`, `MISTRAL_API_KEY`) and offer their {@link MODEL_CATALOG} models.
 * - openai-compatible is configured by `OPENAI_COMPATIBLE_BASE_URL` and offers exactly the ids listed in
 *   `OPENAI_COMPATIBLE_MODELS` (comma-separated; none by default: the server's model list is never queried).
 * - `STRATA_MODELS` (JSON array of partial models with `provider` and `id`) overrides fields of a known model or
 *   adds a new one (defaults: name = id, no reasoning, text input, 128,000 context, 16,384 output, zero cost).
 *   `api` picks the wire API where a provider has two (`openai`: `openai-completions` for OpenAI's Chat
 *   Completions instead of Responses); `compat` sets pi's flags ({@link ModelCompat}, merged over the model's).
 *   Entries of unconfigured providers are ignored.
 * - A Chat Completions model also gets the flags pi detects from its provider's base URL (`OPENAI_COMPATIBLE_BASE_URL`,
 *   `OPENAI_BASE_URL`; {@link detectCompat}, e.g. `requiresReasoningContentOnAssistantMessages` for DeepSeek);
 *   a flag of the model's own `compat` (catalog or `STRATA_MODELS`) wins over the detected one.
 *
 * Returns fresh objects. Throws {@link ModelConfigError} when `STRATA_MODELS` is malformed.
 */
export function getAvailableModels(env: Env): Model[] {
  const custom = parseCustomModels(env);
  const compatibleIds = (env.OPENAI_COMPATIBLE_MODELS ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  const models: Model[] = [];
  for (const provider of PROVIDERS) {
    if (!isProviderConfigured(provider, env)) continue;
    const own: Model[] =
      provider === "openai-compatible"
        ? [...new Set(compatibleIds)].map((id) => applyCustom(undefined, { provider, id }))
        : MODEL_CATALOG.filter((m) => m.provider === provider).map((m) => ({
            ...m,
            input: [...m.input],
            cost: { ...m.cost },
          }));
    for (const entry of custom.filter((c) => c.provider === provider)) {
      const index = own.findIndex((m) => m.id === entry.id);
      if (index >= 0) own[index] = applyCustom(own[index], entry);
      else own.push(applyCustom(undefined, entry));
    }
    const baseURL = nonEmpty(env[PROVIDER_ENV[provider].baseURL]);
    models.push(...own.map((model) => withDetectedCompat(model, baseURL)));
  }
  return models;
}

/** The reference `<provider>/<id>` of a model. */
export function modelRef(model: Pick<Model, "provider" | "id">): string {
  return `${model.provider}/${model.id}`;
}

/**
 * The available model named by `ref` (`<provider>/<id>`; the id may itself contain `/`, e.g.
 * `openai-compatible/meta-llama/Llama-3.3-70B`), or `undefined` when the ref is malformed, the provider is not
 * configured or the id is unknown. Mirrors pi's `ModelRegistry.find(provider, id)` over available models.
 * Throws {@link ModelConfigError} when `STRATA_MODELS` is malformed.
 */
export function resolveModel(ref: string, env: Env): Model | undefined {
  const slash = ref.indexOf("/");
  if (slash <= 0 || slash === ref.length - 1) return undefined;
  const provider = ref.slice(0, slash);
  const id = ref.slice(slash + 1);
  return getAvailableModels(env).find((m) => m.provider === provider && m.id === id);
}

/**
 * The default model: the available model named by `STRATA_DEFAULT_MODEL` (a `<provider>/<id>` ref), else the
 * first available model (also when `STRATA_DEFAULT_MODEL` names a model that is not available), else
 * `undefined` (nothing configured; show {@link modelConfigHelp}). Throws {@link ModelConfigError} only when
 * `STRATA_MODELS` is malformed.
 */
export function defaultModel(env: Env): Model | undefined {
  const ref = nonEmpty(env.STRATA_DEFAULT_MODEL);
  return (ref === undefined ? undefined : resolveModel(ref, env)) ?? getAvailableModels(env)[0];
}

/**
 * The model a session's request uses (the one rule, for runs, summaries, the preview and new sessions): the model
 * `ref` names when given (undefined when it is not available: an explicit choice never falls back), else the
 * session's current model (`{ provider, modelId }` of the branch's last `model_change` / assistant message) when
 * it is available, else {@link defaultModel}.
 */
export function resolvePromptModel(
  ref: string | undefined,
  sessionModel: { provider: string; modelId: string } | null | undefined,
  env: Env,
): Model | undefined {
  if (ref !== undefined) return resolveModel(ref, env);
  const current = sessionModel
    ? resolveModel(`${sessionModel.provider}/${sessionModel.modelId}`, env)
    : undefined;
  return current ?? defaultModel(env);
}

/** Multi-line help telling a user how to configure a model: which variables, where to put them, and the format. */
export function modelConfigHelp(): string {
  return [
    "No model is configured. Strata calls models from the server, with API keys from the server environment.",
    "",
    "Set at least one of these (in the server's environment before `npm start`, or in .env.local):",
    "  ANTHROPIC_API_KEY=sk-ant-...            Claude models (optional ANTHROPIC_BASE_URL, must end in /v1)",
    "  OPENAI_API_KEY=sk-...                   GPT models (optional OPENAI_BASE_URL, must end in /v1)",
    "  GOOGLE_GENERATIVE_AI_API_KEY=...        Gemini models (optional GOOGLE_GENERATIVE_AI_BASE_URL)",
    "  MISTRAL_API_KEY=...                     Mistral models (optional MISTRAL_BASE_URL, must end in /v1)",
    "  OPENAI_COMPATIBLE_BASE_URL=http://localhost:11434/v1",
    "  OPENAI_COMPATIBLE_MODELS=llama3.3,qwen3 any OpenAI-compatible server; list its model ids (none by default)",
    "  OPENAI_COMPATIBLE_API_KEY=...           optional key for that server",
    "",
    "Optional:",
    "  STRATA_DEFAULT_MODEL=anthropic/claude-sonnet-4-5   model reference <provider>/<id>",
    '  STRATA_MODELS=[{"provider":"openai-compatible","id":"qwen3","contextWindow":32768}]',
    "                                          add models or override catalog fields (JSON array)",
    "",
    "Restart the server after changing them. Keys stay on the server: they are never sent to the browser.",
  ].join("\n");
}
