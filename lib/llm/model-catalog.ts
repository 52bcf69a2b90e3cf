/** The built-in model catalog of the registry (lib/llm/models.ts re-exports it). */
import type { Model } from "./models";

/** Prices in US$ per million tokens, in the order input, output, cache read, cache write. */
export const PER_MILLION = (input: number, output: number, cacheRead: number, cacheWrite: number) => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

/**
 * The built-in catalog. Figures, checked 2026-11 (all prices US$ per million tokens, standard tier):
 * - Anthropic: context window, max output and input/output prices from the model overview pages
 *   (platform.claude.com/docs/en/models/<model>/overview); cache read (0.1x input) and 5-minute cache write
 *   (1.25x input) from the pricing page (docs.anthropic.com/en/docs/about-claude/pricing). The max outputs
 *   (64K, 32K, 64K) agree with `getModelCapabilities` in @ai-sdk/anthropic 3.0.140.
 * - OpenAI: developers.openai.com/api/docs/pricing and the model pages (gpt-5 / gpt-5-mini: 400,000 context,
 *   128,000 output; gpt-4.1: 1,047,576 context, 32,768 output). Cached input is billed at cacheRead; OpenAI has
 *   no per-token cache-write price.
 * - Google: ai.google.dev/gemini-api/docs/models and /pricing, prompts <= 200K tokens (2.5 Pro and 3 Pro bill
 *   more above 200K; not modelled). Context caching storage is billed per hour, so cacheWrite is 0.
 * - Mistral: docs.mistral.ai model cards and mistral.ai/pricing. Pinned versions, not `-latest` aliases (an alias
 *   moves to a model with other figures): Mistral Large 3 (`mistral-large-2512`, 256K context, vision), Mistral
 *   Medium 3.1 (`mistral-medium-2508`, 128K, vision), Devstral Medium (`devstral-medium-2507`, 128K, text only).
 *   Mistral publishes no separate output limit (output shares the context), so maxTokens is Strata's cap (32K).
 *   No published cached-input discount or cache-write price: cacheRead = input, cacheWrite = 0.
 */
export const MODEL_CATALOG: readonly Model[] = [
  {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    provider: "anthropic",
    api: "anthropic-messages",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 200_000,
    maxTokens: 64_000,
    cost: PER_MILLION(3, 15, 0.3, 3.75),
  },
  {
    id: "claude-opus-4-1",
    name: "Claude Opus 4.1",
    provider: "anthropic",
    api: "anthropic-messages",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 200_000,
    maxTokens: 32_000,
    cost: PER_MILLION(15, 75, 1.5, 18.75),
  },
  {
    id: "claude-haiku-4-5",
    name: "Claude Haiku 4.5",
    provider: "anthropic",
    api: "anthropic-messages",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 200_000,
    maxTokens: 64_000,
    cost: PER_MILLION(1, 5, 0.1, 1.25),
  },
  {
    id: "gpt-5",
    name: "GPT-5",
    provider: "openai",
    api: "openai-responses",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 400_000,
    maxTokens: 128_000,
    cost: PER_MILLION(1.25, 10, 0.125, 0),
  },
  {
    id: "gpt-5-mini",
    name: "GPT-5 mini",
    provider: "openai",
    api: "openai-responses",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 400_000,
    maxTokens: 128_000,
    cost: PER_MILLION(0.25, 2, 0.025, 0),
  },
  {
    id: "gpt-4.1",
    name: "GPT-4.1",
    provider: "openai",
    api: "openai-responses",
    reasoning: false,
    input: ["text", "image"],
    contextWindow: 1_047_576,
    maxTokens: 32_768,
    cost: PER_MILLION(2, 8, 0.5, 0),
  },
  {
    id: "gemini-2.5-pro",
    name: "Gemini 2.5 Pro",
    provider: "google",
    api: "google-generative-ai",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 1_048_576,
    maxTokens: 65_536,
    cost: PER_MILLION(1.25, 10, 0.125, 0),
  },
  {
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    provider: "google",
    api: "google-generative-ai",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 1_048_576,
    maxTokens: 65_536,
    cost: PER_MILLION(0.3, 2.5, 0.03, 0),
  },
  {
    id: "gemini-3-pro-preview",
    name: "Gemini 3 Pro Preview",
    provider: "google",
    api: "google-generative-ai",
    reasoning: true,
    input: ["text", "image"],
    contextWindow: 1_048_576,
    maxTokens: 65_536,
    cost: PER_MILLION(2, 12, 0.2, 0),
  },
  {
    id: "mistral-large-2512",
    name: "Mistral Large 3",
    provider: "mistral",
    api: "mistral-conversations",
    reasoning: false,
    input: ["text", "image"],
    contextWindow: 262_144,
    maxTokens: 32_768,
    cost: PER_MILLION(0.5, 1.5, 0.5, 0),
  },
  {
    id: "mistral-medium-2508",
    name: "Mistral Medium 3.1",
    provider: "mistral",
    api: "mistral-conversations",
    reasoning: false,
    input: ["text", "image"],
    contextWindow: 131_072,
    maxTokens: 32_768,
    cost: PER_MILLION(0.4, 2, 0.4, 0),
  },
  {
    id: "devstral-medium-2507",
    name: "Devstral Medium",
    provider: "mistral",
    api: "mistral-conversations",
    reasoning: false,
    input: ["text"],
    contextWindow: 131_072,
    maxTokens: 32_768,
    cost: PER_MILLION(0.4, 2, 0.4, 0),
  },
];
