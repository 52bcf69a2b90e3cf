/**
 * Provider errors, classified from an assistant message's `errorMessage` (`<status> <provider message>` for HTTP
 * errors, see `errorMessageOf` in ./stream.ts; the error's own message otherwise): transient ones that pi's
 * auto-retry repeats (`AgentSession._isRetryableError`), context overflows that go to compaction instead
 * (pi-ai `isContextOverflow`, case 1), and the ones a user must fix (a refused key, an unknown model). Pure and
 * browser-safe: the chat uses {@link describeProviderError} to say what is wrong and what to do next.
 */
import { PROVIDER_ENV, type ProviderId } from "./provider-env";

/**
 * pi's transient-error test (`_isRetryableError`): overloaded, rate limits, 429/500/502/503/504, unavailable and
 * server errors, dropped or refused connections, `fetch failed`, `terminated`, an exceeded retry delay.
 */
export const PI_RETRYABLE_PATTERN =
  /overloaded|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|connection.?error|connection.?refused|other side closed|fetch failed|upstream.?connect|reset before headers|terminated|retry delay/i;

/**
 * Strata's own connection-failure texts, which pi-ai words differently (its SDKs say `Connection error.`): the AI
 * SDK's `Cannot connect to API: <cause>` and the socket errors under it, and a timeout (`timed out`, `timeout`:
 * Strata's idle timeout of a silent provider, lib/llm/stream-guards.ts; later pi versions match these words too).
 */
const STRATA_CONNECTION_PATTERN =
  /cannot connect to api|econnrefused|econnreset|etimedout|socket hang up|timed? out|timeout/i;

/**
 * Providers' "the prompt does not fit the context window" errors (pi `isContextOverflow`, case 1):
 * Anthropic `prompt is too long: N tokens > M maximum`; OpenAI `context_length_exceeded`, `maximum context
 * length is N tokens`, `Your input exceeds the context window of this model`; Google `The input token
 * count (N) exceeds the maximum number of tokens allowed (M)`; plus the other providers pi knows
 * (Bedrock, xAI, Groq, OpenRouter, Copilot, llama.cpp, LM Studio, MiniMax, Kimi, Mistral) and a body-less
 * 400/413 (Cerebras).
 */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i,
  /input is too long for requested model/i,
  /exceeds the context window/i,
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /input token count.*exceeds the maximum/i,
  /exceeds the maximum number of tokens/i,
  /maximum prompt length is \d+/i,
  /reduce the length of the messages/i,
  /exceeds the limit of \d+/i,
  /exceeds the available context size/i,
  /greater than the context length/i,
  /context window exceeds limit/i,
  /exceeded model token limit/i,
  /too large for model with \d+ maximum context length/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /^4(00|13)\s*(status code)?\s*\(no body\)/i,
];

/** Whether a failed request's `errorMessage` is a context-window overflow (see the patterns above). */
export function isContextOverflowError(errorMessage: string | undefined | null): boolean {
  if (!errorMessage) return false;
  return OVERFLOW_PATTERNS.some((p) => p.test(errorMessage));
}

/** The HTTP status an `errorMessage` starts with (`"529 Overloaded"` → 529), else undefined. */
export function errorStatus(errorMessage: string | undefined | null): number | undefined {
  const match = /^([1-5]\d\d)\b/.exec(errorMessage ?? "");
  return match ? Number(match[1]) : undefined;
}

/**
 * Whether an `errorMessage` is transient, i.e. worth an automatic retry: pi's pattern
 * ({@link PI_RETRYABLE_PATTERN}), or (Strata) a leading status 429 or 5xx — pi-ai's messages carry the provider's
 * error JSON (`overloaded_error`), Strata's only `<status> <message>`, so a 529 "Server busy" has only its status
 * to go by — or the AI SDK's connection failures ({@link STRATA_CONNECTION_PATTERN}). A context overflow is
 * never transient (it goes to compaction).
 */
export function isTransientError(errorMessage: string | undefined | null): boolean {
  if (!errorMessage || isContextOverflowError(errorMessage)) return false;
  const status = errorStatus(errorMessage);
  if (status === 429 || (status !== undefined && status >= 500)) return true;
  return PI_RETRYABLE_PATTERN.test(errorMessage) || STRATA_CONNECTION_PATTERN.test(errorMessage);
}

/** What kind of failure an `errorMessage` reports. */
export type ProviderErrorKind = "auth" | "model" | "overflow" | "transient" | "other";

/** A failure explained for the chat: what is wrong (`title`) and what to do next (`hint`). */
export interface ProviderErrorInfo {
  kind: ProviderErrorKind;
  status?: number;
  title: string;
  /** The provider's own message, status included (the `errorMessage`). */
  detail: string;
  hint: string;
}

const AUTH_PATTERN =
  /invalid.?x-api-key|invalid.?api.?key|incorrect api key|authentication|unauthori[sz]ed|permission/i;
const MODEL_PATTERN =
  /model.{0,40}(not.?found|does not exist|unknown|not supported)|not_found_error|unknown model/i;

function keyVariable(provider: string | undefined): string | undefined {
  return provider && provider in PROVIDER_ENV ? PROVIDER_ENV[provider as ProviderId].apiKey : undefined;
}

/**
 * Classify and explain a failed turn's `errorMessage` (`provider`, `model`: the assistant message's, for naming
 * the key variable and the model). Kinds, in order: `overflow` (context too long), `auth` (401/403 or a key
 * message), `model` (404 or "model not found"), `transient` (see {@link isTransientError}), else `other`.
 */
export function describeProviderError(
  errorMessage: string,
  context: { provider?: string; model?: string } = {},
): ProviderErrorInfo {
  const status = errorStatus(errorMessage);
  const base = { status, detail: errorMessage };
  const model = context.provider && context.model ? `${context.provider}/${context.model}` : "the model";
  if (isContextOverflowError(errorMessage))
    return {
      ...base,
      kind: "overflow",
      title: "The conversation is too long for the model's context window",
      hint: "Run /compact to summarise older messages, or continue on a new branch from an earlier message (History).",
    };
  if (status === 401 || status === 403 || (status === undefined && AUTH_PATTERN.test(errorMessage))) {
    const variable = keyVariable(context.provider) ?? "the provider's API key variable";
    return {
      ...base,
      kind: "auth",
      title: `The provider refused the API key${status ? ` (${status})` : ""}`,
      hint: `Set ${variable} to a valid key in the server's environment or in .env.local, then restart Strata.`,
    };
  }
  if (status === 404 || MODEL_PATTERN.test(errorMessage))
    return {
      ...base,
      kind: "model",
      title: `The provider does not know ${model}${status ? ` (${status})` : ""}`,
      hint: "Pick another model in the model picker, or fix STRATA_DEFAULT_MODEL / STRATA_MODELS and restart Strata.",
    };
  if (isTransientError(errorMessage))
    return {
      ...base,
      kind: "transient",
      title: `The provider is unavailable or rate-limited${status ? ` (${status})` : ""}`,
      hint: "This is usually temporary: press Retry in a moment.",
    };
  return {
    ...base,
    kind: "other",
    title: status ? `The provider reported an error (${status})` : "The turn failed",
    hint: "Press Retry to run the turn again, or change the prompt or the model.",
  };
}
