/**
 * Per-request provider settings of `streamAssistant` (lib/llm/stream.ts): the output cap, pi's thinking budget and
 * the AI SDK `providerOptions` for each provider (pi's `buildBaseOptions` / per-API thinking options).
 */
import type { Model } from "./models";
import { OPENAI_COMPATIBLE_NAME } from "./providers";
import type { ThinkingLevel } from "./types";

/** pi's default thinking budgets in tokens (`DEFAULT_THINKING_BUDGETS` in `packages/ai/src/api/simple-options.ts`). */
export const THINKING_BUDGETS = { minimal: 1024, low: 2048, medium: 8192, high: 16384 } as const;

/** Tokens always left for the answer when a thinking budget shares the output ceiling (pi's `MIN_ANSWER_TOKENS`). */
const MIN_ANSWER_TOKENS = 1024;

type EffectiveLevel = keyof typeof THINKING_BUDGETS;

/** pi's `clampReasoning`: `xhigh` and `max` become `high`; `off`/unset become `undefined`. */
export function effectiveLevel(model: Model, level: ThinkingLevel | undefined): EffectiveLevel | undefined {
  if (!model.reasoning || level === undefined || level === "off") return undefined;
  return level === "xhigh" || level === "max" ? "high" : level;
}

/**
 * Output cap and thinking budget, pi's `adjustMaxTokensForThinking`: with thinking the ceiling is
 * `min(maxTokens + budget, model.maxTokens)` (the model's cap when `maxTokens` is unset), and the budget is
 * reduced so at least 1024 answer tokens remain.
 */
export function outputBudget(
  model: Model,
  maxTokens: number | undefined,
  level: ThinkingLevel | undefined,
): { maxTokens: number; thinkingBudget?: number } {
  const effective = effectiveLevel(model, level);
  if (effective === undefined) return { maxTokens: maxTokens ?? model.maxTokens };
  let thinkingBudget: number = THINKING_BUDGETS[effective];
  const ceiling =
    maxTokens === undefined ? model.maxTokens : Math.min(maxTokens + thinkingBudget, model.maxTokens);
  if (ceiling <= thinkingBudget)
    thinkingBudget = Math.min(thinkingBudget, Math.max(0, ceiling - MIN_ANSWER_TOKENS));
  return { maxTokens: ceiling, thinkingBudget };
}

/**
 * AI SDK `providerOptions` and `maxOutputTokens` for a request:
 * - Anthropic: `thinking: { type: "enabled", budgetTokens }`; the SDK adds the budget to `max_tokens`, so
 *   `maxOutputTokens` is the ceiling minus the budget.
 * - OpenAI Responses: always `store: false` (stateless replay); reasoning models also get
 *   `include: ["reasoning.encrypted_content"]`, plus `reasoningEffort` and `reasoningSummary: "auto"` when
 *   thinking is on.
 * - Google: `thinkingConfig` with `includeThoughts` and the budget (Gemini 3: `thinkingLevel` low/high).
 * - openai-compatible: `reasoningEffort`.
 * - Mistral: no provider options (the catalog's Mistral models do not reason).
 */
export function requestSettings(
  model: Model,
  options: { thinkingLevel?: ThinkingLevel; maxTokens?: number },
): { maxOutputTokens: number; providerOptions: Record<string, Record<string, unknown>> } {
  const level = effectiveLevel(model, options.thinkingLevel);
  const { maxTokens, thinkingBudget } = outputBudget(model, options.maxTokens, options.thinkingLevel);
  switch (model.provider) {
    case "anthropic":
      if (level === undefined || !thinkingBudget) return { maxOutputTokens: maxTokens, providerOptions: {} };
      return {
        maxOutputTokens: maxTokens - thinkingBudget,
        providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: thinkingBudget } } },
      };
    case "openai":
      if (model.api === "openai-completions") {
        // pi's compat for api.openai.com: `store: false`, the developer role exactly for reasoning models.
        return {
          maxOutputTokens: maxTokens,
          providerOptions: {
            openai: {
              store: false,
              forceReasoning: model.reasoning,
              ...(level ? { reasoningEffort: level } : {}),
            },
          },
        };
      }
      return {
        maxOutputTokens: maxTokens,
        providerOptions: {
          openai: {
            store: false,
            ...(model.reasoning ? { include: ["reasoning.encrypted_content"] } : {}),
            ...(level ? { reasoningEffort: level, reasoningSummary: "auto" } : {}),
          },
        },
      };
    case "google": {
      if (level === undefined) return { maxOutputTokens: maxTokens, providerOptions: {} };
      const thinkingConfig = model.id.startsWith("gemini-3")
        ? { includeThoughts: true, thinkingLevel: level === "minimal" || level === "low" ? "low" : "high" }
        : { includeThoughts: true, thinkingBudget };
      return { maxOutputTokens: maxTokens, providerOptions: { google: { thinkingConfig } } };
    }
    case "openai-compatible":
      return {
        maxOutputTokens: maxTokens,
        providerOptions: level ? { [OPENAI_COMPATIBLE_NAME]: { reasoningEffort: level } } : {},
      };
    case "mistral":
      return { maxOutputTokens: maxTokens, providerOptions: {} };
  }
}
