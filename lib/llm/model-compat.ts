/**
 * pi's compatibility flags of a model (`ModelCompat`) and their detection from where a Chat Completions model is
 * served: pi's `detectCompat` (packages/ai/src/api/openai-completions.ts), reduced to the flags Strata implements,
 * plus the flag pi's model catalog sets on Moonshot's Kimi models. `getAvailableModels` (models.ts) puts the
 * detected flags under the model's own (catalog and `STRATA_MODELS`), which win flag by flag, as pi's `getCompat`.
 */
import type { Api } from "./types";

/**
 * pi's per-model compatibility flags that Strata honours (`model.compat`): detected from a Chat Completions
 * model's base URL ({@link detectCompat}) and settable per model in `STRATA_MODELS`, which wins flag by flag.
 * Unknown flags are refused when `STRATA_MODELS` is read, so a flag Strata does not implement never looks set.
 */
export interface ModelCompat {
  /**
   * The provider accepts system messages after the first turn (pi's `supportsMidConvoSystemMessages`): later
   * system messages stay in place for Anthropic, OpenAI Responses and Chat Completions (pi's the provider serializers).
   */
  supportsMidConvoSystemMessages?: boolean;
  /**
   * Chat Completions, reasoning models only (pi's `requiresReasoningContentOnAssistantMessages`, e.g. DeepSeek's
   * thinking mode, which refuses a tool-call turn without its reasoning): every assistant message carries
   * `reasoning_content` — the model's own thinking text when it has some (sent by the AI SDK), else `""` (a turn
   * of another model, whose thinking went out as text). Detected for DeepSeek and Moonshot hosts.
   */
  requiresReasoningContentOnAssistantMessages?: boolean;
  /**
   * Chat Completions (pi's flag): `store: false` is sent (`true`; OpenAI's own Chat Completions always sends it) or
   * no `store` field (`false`). Default: detected for a host pi knows, else what the AI SDK provider sends.
   */
  supportsStore?: boolean;
  /**
   * Chat Completions (pi's flag): the system prompt of a reasoning model goes out with the `developer` role
   * (`true`) or the `system` role (`false`). Default: detected for a host pi knows, else `developer` for OpenAI's
   * own reasoning models and `system` for the rest.
   */
  supportsDeveloperRole?: boolean;
  /**
   * Chat Completions (pi's flag): the name of the output cap field. Default: detected for a host pi knows, else what
   * the AI SDK provider sends.
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** Chat Completions (pi's flag): every tool message carries the tool's `name`. */
  requiresToolResultName?: boolean;
  /**
   * Chat Completions (pi's flag): a user message right after tool results gets pi's bridge assistant message
   * `I have processed the tool results.` before it, and an assistant message without text has content `""`
   * instead of `null`.
   */
  requiresAssistantAfterToolResult?: boolean;
}

/** The compat flags' names, for `STRATA_MODELS` validation and the docs. */
export const MODEL_COMPAT_FLAGS = [
  "supportsMidConvoSystemMessages",
  "requiresReasoningContentOnAssistantMessages",
  "supportsStore",
  "supportsDeveloperRole",
  "maxTokensField",
  "requiresToolResultName",
  "requiresAssistantAfterToolResult",
] as const satisfies readonly (keyof ModelCompat)[];

/** A host family pi's `detectCompat` names (its `isDeepSeek`, `isMoonshot`, …), by host name. */
type HostFamily =
  | "deepseek"
  | "moonshot"
  | "zai"
  | "together"
  | "openrouter"
  | "cloudflareWorkersAI"
  | "cloudflareAiGateway"
  | "nvidia"
  | "antLing"
  | "cerebras"
  | "xai"
  | "chutes"
  | "opencode";

/** `host` is `domain` or one of its subdomains. */
const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** The hosts of each family, as pi's `detectCompat` tests its base URL. */
const FAMILIES: Record<HostFamily, (host: string) => boolean> = {
  deepseek: (host) => under(host, "deepseek.com"),
  moonshot: (host) => host.startsWith("api.moonshot."),
  zai: (host) => under(host, "api.z.ai") || under(host, "open.bigmodel.cn"),
  together: (host) => under(host, "api.together.ai") || under(host, "api.together.xyz"),
  openrouter: (host) => under(host, "openrouter.ai"),
  cloudflareWorkersAI: (host) => under(host, "api.cloudflare.com"),
  cloudflareAiGateway: (host) => under(host, "gateway.ai.cloudflare.com"),
  nvidia: (host) => under(host, "integrate.api.nvidia.com"),
  antLing: (host) => under(host, "api.ant-ling.com"),
  cerebras: (host) => under(host, "cerebras.ai"),
  xai: (host) => under(host, "api.x.ai"),
  chutes: (host) => under(host, "chutes.ai"),
  opencode: (host) => under(host, "opencode.ai"),
};

/** pi's `isNonStandard` hosts: no `store`, no `developer` role. */
const NON_STANDARD: ReadonlySet<HostFamily> = new Set<HostFamily>([
  "nvidia",
  "cerebras",
  "xai",
  "together",
  "chutes",
  "deepseek",
  "zai",
  "moonshot",
  "opencode",
  "cloudflareWorkersAI",
  "cloudflareAiGateway",
  "antLing",
]);

/** pi's `useMaxTokens` hosts: the output cap is `max_tokens` (elsewhere `max_completion_tokens`). */
const MAX_TOKENS: ReadonlySet<HostFamily> = new Set<HostFamily>([
  "chutes",
  "deepseek",
  "moonshot",
  "cloudflareAiGateway",
  "together",
  "nvidia",
  "antLing",
  "zai",
]);

/** Hosts whose thinking models need `reasoning_content` on every assistant message. */
const REASONING_CONTENT: ReadonlySet<HostFamily> = new Set<HostFamily>(["deepseek", "moonshot"]);

/** The lower-cased host name of `baseURL`, or `undefined` when it is not an absolute URL. */
function hostOf(baseURL: string | undefined): string | undefined {
  if (!baseURL) return undefined;
  try {
    return new URL(baseURL.trim()).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The compat flags a Chat Completions model gets from the host it is served from (`baseURL`: the provider's base
 * URL, e.g. `OPENAI_COMPATIBLE_BASE_URL`), as pi's `detectCompat` for the flags Strata implements:
 * - a host pi knows (DeepSeek `deepseek.com`, Moonshot `api.moonshot.*`, Z.ai `api.z.ai` / `open.bigmodel.cn`,
 *   Together, OpenRouter, Cloudflare Workers AI and AI Gateway, NVIDIA, Ant Ling, Cerebras, xAI, Chutes,
 *   OpenCode) gets pi's `supportsStore` and `supportsDeveloperRole` (`false` except on OpenRouter, whose
 *   `anthropic/…` and `openai/…` models take the `developer` role) and `maxTokensField` (`max_tokens` for
 *   DeepSeek, Moonshot, Z.ai, Together, Chutes, NVIDIA, Ant Ling and the Cloudflare AI Gateway, else
 *   `max_completion_tokens`);
 * - DeepSeek (pi's `detectCompat`) and Moonshot (pi's catalog sets it per Kimi model, e.g. `kimi-k3`; here every
 *   model of the host, where it acts only on reasoning models) also get
 *   `requiresReasoningContentOnAssistantMessages: true`.
 * Any other host (a local server, a proxy) and every other API get `{}`: the AI SDK provider's request stands,
 * where pi would assume OpenAI's own settings. Hosts are matched by name (a domain or its subdomains; pi looks for
 * the text anywhere in the URL). Never throws; an unparsable URL detects nothing.
 */
export function detectCompat(model: { id: string; api: Api }, baseURL: string | undefined): ModelCompat {
  if (model.api !== "openai-completions") return {};
  const host = hostOf(baseURL);
  if (host === undefined) return {};
  const family = (Object.keys(FAMILIES) as HostFamily[]).find((name) => FAMILIES[name](host));
  if (family === undefined) return {};
  const openRouterDeveloper =
    family === "openrouter" && (model.id.startsWith("anthropic/") || model.id.startsWith("openai/"));
  const compat: ModelCompat = {
    supportsStore: !NON_STANDARD.has(family),
    supportsDeveloperRole: openRouterDeveloper || (!NON_STANDARD.has(family) && family !== "openrouter"),
    maxTokensField: MAX_TOKENS.has(family) ? "max_tokens" : "max_completion_tokens",
  };
  if (REASONING_CONTENT.has(family)) compat.requiresReasoningContentOnAssistantMessages = true;
  return compat;
}
