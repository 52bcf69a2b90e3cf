/**
 * AI SDK provider instances for Strata models, configured from the server environment only.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { type Env, type Model, ModelConfigError, PROVIDER_ENV, type ProviderId } from "./models";

/** An AI SDK language model instance (never a gateway string id). */
export type LanguageModelInstance = Exclude<LanguageModel, string>;

/**
 * Default base URLs. They are passed explicitly so the SDK never falls back to `process.env` on its own: the
 * `env` argument is the only source of configuration.
 */
export const DEFAULT_BASE_URLS: Record<Exclude<ProviderId, "openai-compatible">, string> = {
  anthropic: "https://api.anthropic.com/v1",
  openai: "https://api.openai.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  mistral: "https://api.mistral.ai/v1",
};

/** The name of the openai-compatible provider instance; also its `providerOptions` key. */
export const OPENAI_COMPATIBLE_NAME = "openaiCompatible";

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * The env entry that marks setting `name` as refused (its value: why, for the chat). lib/secrets sets it when a
 * workspace's base URL names a host the server does not allow; {@link createLanguageModel} then throws that text
 * instead of calling any URL.
 */
export const refusedSettingVar = (name: string): string => `STRATA_REFUSED_${name}`;

/**
 * The AI SDK model for `model`: `createAnthropic(...)(id)`, `createOpenAI(...).responses(id)` (with `api`
 * `openai-completions`: `createOpenAI(...).chat(id)`, OpenAI's own Chat Completions),
 * `createGoogleGenerativeAI(...)(id)`, `createMistral(...)(id)` or `createOpenAICompatible(...).chatModel(id)`,
 * with the API key and base URL read from `env` (see `PROVIDER_ENV`). `ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL` and
 * `MISTRAL_BASE_URL` must include the `/v1` path segment, because the SDK posts to `${baseURL}/messages`,
 * `${baseURL}/responses` and `${baseURL}/chat/completions`
 * (e.g. `http://127.0.0.1:4010/v1`). `options.fetch` replaces the HTTP client (the payload hook of
 * `streamAssistant` and tests use it). Counterpart of pi's per-API client construction in `packages/ai/src/api/*`.
 *
 * Throws {@link ModelConfigError} when the provider's API key (openai-compatible: base URL) is missing, or with the
 * refusal text when the base URL is marked refused ({@link refusedSettingVar}).
 */
export function createLanguageModel(
  model: Model,
  env: Env,
  options: { fetch?: typeof fetch } = {},
): LanguageModelInstance {
  const vars = PROVIDER_ENV[model.provider];
  const refused = setting(env, refusedSettingVar(vars.baseURL));
  if (refused !== undefined) throw new ModelConfigError(refused);
  const apiKey = setting(env, vars.apiKey);
  const baseURL = setting(env, vars.baseURL);
  const { fetch } = options;
  if (model.provider !== "openai-compatible" && apiKey === undefined) {
    throw new ModelConfigError(`${vars.apiKey} is not set; cannot call ${model.provider}/${model.id}.`);
  }
  switch (model.provider) {
    case "anthropic":
      return createAnthropic({ apiKey, baseURL: baseURL ?? DEFAULT_BASE_URLS.anthropic, fetch })(model.id);
    case "openai": {
      const openai = createOpenAI({ apiKey, baseURL: baseURL ?? DEFAULT_BASE_URLS.openai, fetch });
      return model.api === "openai-completions" ? openai.chat(model.id) : openai.responses(model.id);
    }
    case "google":
      return createGoogleGenerativeAI({ apiKey, baseURL: baseURL ?? DEFAULT_BASE_URLS.google, fetch })(
        model.id,
      );
    case "mistral":
      return createMistral({ apiKey, baseURL: baseURL ?? DEFAULT_BASE_URLS.mistral, fetch })(model.id);
    case "openai-compatible":
      if (baseURL === undefined) {
        throw new ModelConfigError(`${vars.baseURL} is not set; cannot call ${model.provider}/${model.id}.`);
      }
      return createOpenAICompatible({
        name: OPENAI_COMPATIBLE_NAME,
        baseURL,
        apiKey,
        fetch,
        includeUsage: true,
      }).chatModel(model.id);
  }
}
