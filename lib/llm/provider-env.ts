/**
 * Each provider's id and environment variables, without the model registry (which validates `STRATA_MODELS` with
 * zod and so stays on the server): the browser's error explanations (`provider-errors.ts`) name these variables.
 */

/** A provider Strata can call. */
export type ProviderId = "anthropic" | "openai" | "google" | "mistral" | "openai-compatible";

/** The environment variables of each provider: API key, base URL, and which one makes the provider configured. */
export const PROVIDER_ENV: Record<
  ProviderId,
  { apiKey: string; baseURL: string; requires: "apiKey" | "baseURL" }
> = {
  anthropic: { apiKey: "ANTHROPIC_API_KEY", baseURL: "ANTHROPIC_BASE_URL", requires: "apiKey" },
  openai: { apiKey: "OPENAI_API_KEY", baseURL: "OPENAI_BASE_URL", requires: "apiKey" },
  google: {
    apiKey: "GOOGLE_GENERATIVE_AI_API_KEY",
    baseURL: "GOOGLE_GENERATIVE_AI_BASE_URL",
    requires: "apiKey",
  },
  mistral: { apiKey: "MISTRAL_API_KEY", baseURL: "MISTRAL_BASE_URL", requires: "apiKey" },
  "openai-compatible": {
    apiKey: "OPENAI_COMPATIBLE_API_KEY",
    baseURL: "OPENAI_COMPATIBLE_BASE_URL",
    requires: "baseURL",
  },
};
