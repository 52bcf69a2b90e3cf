/**
 * Tool-call id rules per target API (pi's the provider serializers), reimplemented from pi's provider
 * serializers (`anthropic-messages.ts`, `openai-responses-shared.ts`, `openai-completions.ts`, `google-shared.ts`,
 * `mistral-conversations.ts`) and pi's `utils/hash.ts`. A normalizer has the shape of the third argument of
 * `transformMessages`: `(id, targetModel, sourceMessage) => id`.
 *
 * Strata adds {@link isValidToolCallId} and {@link uniqueToolCallId}, used by `transformMessages` to guarantee that
 * every id on the wire is valid for the target and that no two tool calls of one request share an id.
 */
import type { Model } from "./models";
import type { AssistantMessage } from "./types";

/** A tool-call id normalizer as `transformMessages` takes it (pi's `normalizeToolCallId` callback). */
export type ToolCallIdNormalizer = (id: string, model: IdTarget, source: AssistantMessage) => string;

/** The fields of a model that decide its id rules (`api` may name an API Strata has no provider for, e.g. Mistral). */
export interface IdTarget {
  api: string;
  provider: string;
  id: string;
}

/**
 * pi's `shortHash` (`packages/ai/src/utils/hash.ts`): a 53-bit two-lane multiplicative hash (cyrb53 mixing) over
 * UTF-16 code units, printed as `h2` then `h1` in base 36 (each unsigned 32-bit, no padding), so usually 12 or 13
 * characters of `[0-9a-z]`. Deterministic; not cryptographic. `shortHash("weird+item")` → `"5qfc0yomrzdo"`.
 */
export function shortHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(36) + (h1 >>> 0).toString(36);
}

const NOT_ID_CHAR = /[^a-zA-Z0-9_-]/g;

/** Anthropic's tool_use id pattern (also what Google and Bedrock accept). */
export const ANTHROPIC_TOOL_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Anthropic rule (pi's `anthropic-messages.ts`, also Bedrock and Google-with-ids): every character outside `[a-zA-Z0-9_-]` becomes `_`,
 * then the id is cut to 64 characters. `call_1|fc/+=abc` → `call_1_fc___abc`. Mirrors the normalizer in pi's
 * `anthropic-messages.ts`. An empty id stays empty (see {@link uniqueToolCallId}).
 */
export function normalizeAnthropicToolCallId(id: string): string {
  return id.replace(NOT_ID_CHAR, "_").slice(0, 64);
}

/**
 * Whether a Google model needs explicit function-call ids (pi's `requiresToolCallId`): `claude-*`, `gpt-oss-*`
 * and Gemini with major version ≥ 3 (`gemini-3-pro-preview`, `gemini-live-3…`). Others get no ids on the wire.
 */
export function googleRequiresToolCallId(modelId: string): boolean {
  const match = modelId.toLowerCase().match(/^gemini(?:-live)?-(\d+)/);
  const major = match ? Number.parseInt(match[1] ?? "", 10) : undefined;
  return (
    modelId.startsWith("claude-") || modelId.startsWith("gpt-oss-") || (major !== undefined && major >= 3)
  );
}

/** Google rule (pi's the provider serializers): the Anthropic rule for models that need ids, else the id unchanged (it is not sent). */
export function normalizeGoogleToolCallId(id: string, model: Pick<Model, "id">): string {
  return googleRequiresToolCallId(model.id) ? normalizeAnthropicToolCallId(id) : id;
}

/** One part of a Responses id (pi's the provider serializers): `[^a-zA-Z0-9_-]` → `_`, cut to 64, trailing `_` removed. */
export function normalizeResponsesIdPart(part: string): string {
  return part.replace(NOT_ID_CHAR, "_").slice(0, 64).replace(/_+$/, "");
}

/** pi's providers whose Responses ids are kept as `call_id|item_id` (Strata only has `openai`). */
export const RESPONSES_ITEM_ID_PROVIDERS: ReadonlySet<string> = new Set([
  "openai",
  "openai-codex",
  "opencode",
]);

/**
 * OpenAI Responses rule (pi's the provider serializers), pi's `normalizeToolCallId` in `convertResponsesMessages`. For target providers
 * outside {@link RESPONSES_ITEM_ID_PROVIDERS}, or an id without `|`, the whole id is one normalized part.
 * Otherwise `call_id|item_id`: the call id is normalized; the item id of a **foreign** source (other provider or
 * api than the target) becomes `fc_<shortHash(item id)>` (cut to 64), else it is normalized and prefixed `fc_`
 * when it lacks it. `toolu_01/abc|weird+item` from Anthropic → `toolu_01_abc|fc_5qfc0yomrzdo`.
 */
export function normalizeResponsesToolCallId(id: string, model: IdTarget, source: AssistantMessage): string {
  if (!RESPONSES_ITEM_ID_PROVIDERS.has(model.provider)) return normalizeResponsesIdPart(id);
  if (!id.includes("|")) return normalizeResponsesIdPart(id);
  const [callId = "", itemId = ""] = id.split("|");
  const foreign = source.provider !== model.provider || source.api !== model.api;
  let item = foreign ? `fc_${shortHash(itemId)}`.slice(0, 64) : normalizeResponsesIdPart(itemId);
  if (!item.startsWith("fc_")) item = normalizeResponsesIdPart(`fc_${item}`);
  return `${normalizeResponsesIdPart(callId)}|${item}`;
}

/**
 * OpenAI Chat Completions rule (pi's the provider serializers), pi's `normalizeToolCallId` in `openai-completions.ts`. With `|`: both
 * parts get `[^a-zA-Z0-9_-]` → `_`; `<call>_<item>` (or `<call>` when the item is empty) if at most 40 characters,
 * else `<call cut to 31>_<first 8 of shortHash(whole id)>` (`call_abc|fc_zzzz…` → `call_abc_1o80fvv1`). Without
 * `|`: cut to 40 only when the target provider is `openai`, else unchanged.
 */
export function normalizeCompletionsToolCallId(id: string, model: { provider: string }): string {
  const bar = id.indexOf("|");
  if (bar >= 0) {
    const callId = id.slice(0, bar).replace(NOT_ID_CHAR, "_");
    const itemId = id.slice(bar + 1).replace(NOT_ID_CHAR, "_");
    const combined = itemId.length > 0 ? `${callId}_${itemId}` : callId;
    if (combined.length <= 40) return combined;
    const hash = shortHash(id).slice(0, 8);
    return `${callId.slice(0, Math.max(1, 40 - hash.length - 1))}_${hash}`;
  }
  if (model.provider === "openai") return id.length > 40 ? id.slice(0, 40) : id;
  return id;
}

/** Mistral's tool-call id length (pi's `MISTRAL_TOOL_CALL_ID_LENGTH`). */
export const MISTRAL_TOOL_CALL_ID_LENGTH = 9;

/**
 * pi's `deriveMistralToolCallId`: the id without non-alphanumerics if that is exactly 9 characters (first
 * attempt only), else the first 9 alphanumerics of `shortHash(<seed>)` with seed = the stripped id (or the raw id
 * when nothing is left), suffixed `:<attempt>` after the first attempt. Strata pads a hash shorter than 9 with
 * further hashing so the result always has 9 characters.
 */
export function deriveMistralToolCallId(id: string, attempt: number): string {
  const normalized = id.replace(/[^a-zA-Z0-9]/g, "");
  if (attempt === 0 && normalized.length === MISTRAL_TOOL_CALL_ID_LENGTH) return normalized;
  const seedBase = normalized || id;
  const seed = attempt === 0 ? seedBase : `${seedBase}:${attempt}`;
  let hash = shortHash(seed).replace(/[^a-zA-Z0-9]/g, "");
  while (hash.length < MISTRAL_TOOL_CALL_ID_LENGTH) hash += shortHash(hash);
  return hash.slice(0, MISTRAL_TOOL_CALL_ID_LENGTH);
}

/**
 * Mistral rule (pi's the provider serializers) with per-request de-duplication (pi's `createMistralToolCallIdNormalizer`): a fresh
 * normalizer per request maps each original id to a 9-character alphanumeric id ({@link deriveMistralToolCallId}),
 * retrying with the next attempt while the candidate already belongs to another original id. The same original
 * id always maps to the same result.
 */
export function createMistralToolCallIdNormalizer(): (id: string) => string {
  const forward = new Map<string, string>();
  const owner = new Map<string, string>();
  return (id) => {
    const known = forward.get(id);
    if (known !== undefined) return known;
    for (let attempt = 0; ; attempt++) {
      const candidate = deriveMistralToolCallId(id, attempt);
      const current = owner.get(candidate);
      if (current === undefined || current === id) {
        forward.set(id, candidate);
        owner.set(candidate, id);
        return candidate;
      }
    }
  };
}

/**
 * The normalizer pi's serializer for `model.api` hands to `transformMessages` (fresh per request: the Mistral one
 * is stateful): Anthropic → {@link normalizeAnthropicToolCallId}; OpenAI Responses →
 * {@link normalizeResponsesToolCallId}; Completions → {@link normalizeCompletionsToolCallId}; Google →
 * {@link normalizeGoogleToolCallId}; `mistral-conversations` → {@link createMistralToolCallIdNormalizer}.
 */
export function toolCallIdNormalizerFor(model: IdTarget): ToolCallIdNormalizer {
  switch (model.api) {
    case "anthropic-messages":
      return (id) => normalizeAnthropicToolCallId(id);
    case "openai-responses":
      return (id, target, source) => normalizeResponsesToolCallId(id, target, source);
    case "openai-completions":
      return (id, target) => normalizeCompletionsToolCallId(id, target);
    case "google-generative-ai":
      return (id, target) => normalizeGoogleToolCallId(id, target);
    case "mistral-conversations": {
      const mistral = createMistralToolCallIdNormalizer();
      return (id) => mistral(id);
    }
    default:
      return (id) => id;
  }
}

const RESPONSES_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const RESPONSES_ITEM_ID = /^fc_[a-zA-Z0-9_-]{1,61}$/;
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;
const COMPLETIONS_ID = /^[a-zA-Z0-9_-]{1,40}$/;

/**
 * Whether `id` is a tool-call id the target accepts on the wire (Strata's check, stricter than pi where pi
 * leaves ids alone): Anthropic and Google `^[a-zA-Z0-9_-]{1,64}$`; Responses `call_id` (the part before `|`) the
 * same and an item id, when present, `fc_` + up to 61 of those characters; Completions up to 40 of them; Mistral
 * exactly 9 alphanumerics. Other APIs: any non-empty id.
 */
export function isValidToolCallId(id: string, model: IdTarget): boolean {
  switch (model.api) {
    case "anthropic-messages":
    case "google-generative-ai":
      return ANTHROPIC_TOOL_CALL_ID.test(id);
    case "openai-responses": {
      const bar = id.indexOf("|");
      if (bar < 0) return RESPONSES_CALL_ID.test(id);
      return RESPONSES_CALL_ID.test(id.slice(0, bar)) && RESPONSES_ITEM_ID.test(id.slice(bar + 1));
    }
    case "openai-completions":
      return COMPLETIONS_ID.test(id);
    case "mistral-conversations":
      return MISTRAL_ID.test(id);
    default:
      return id.length > 0;
  }
}

/** The wire identity of an id: what must be unique in one request (Responses: the `call_id` part). */
export function wireToolCallId(id: string, model: IdTarget): string {
  if (model.api !== "openai-responses") return id;
  const bar = id.indexOf("|");
  return bar >= 0 ? id.slice(0, bar) : id;
}

function sanitizeForTarget(id: string, model: IdTarget): string {
  switch (model.api) {
    case "openai-responses": {
      const bar = id.indexOf("|");
      const call = normalizeResponsesIdPart(bar >= 0 ? id.slice(0, bar) : id) || "call";
      if (bar < 0) return call;
      const rawItem = normalizeResponsesIdPart(id.slice(bar + 1));
      const item = rawItem.startsWith("fc_") ? rawItem : normalizeResponsesIdPart(`fc_${rawItem}`);
      return RESPONSES_ITEM_ID.test(item) ? `${call}|${item}` : call;
    }
    case "openai-completions":
      return id.replace(NOT_ID_CHAR, "_").slice(0, 40) || "call";
    case "mistral-conversations":
      return deriveMistralToolCallId(id, 0);
    default:
      return normalizeAnthropicToolCallId(id) || "call";
  }
}

/**
 * Strata: a variant of `id` that is valid for the target ({@link isValidToolCallId}) and whose wire identity
 * ({@link wireToolCallId}) is not in `used`. A valid unused id is returned as is; an invalid one is first made
 * valid (the target's character rule, `call` when nothing is left); a used one gets the suffix `_2`, `_3`, …
 * (cutting the id to keep the length limit; Mistral: the next hash attempt). Responses item ids that collide are
 * dropped from the composite id. Does not add the result to `used`.
 */
export function uniqueToolCallId(id: string, model: IdTarget, used: ReadonlySet<string>): string {
  let base = isValidToolCallId(id, model) ? id : sanitizeForTarget(id, model);
  if (!isValidToolCallId(base, model)) base = sanitizeForTarget(base, model);
  if (!used.has(wireToolCallId(base, model))) return base;
  if (model.api === "mistral-conversations") {
    for (let attempt = 1; ; attempt++) {
      const candidate = deriveMistralToolCallId(`${id}`, attempt);
      if (!used.has(candidate)) return candidate;
    }
  }
  const call = wireToolCallId(base, model);
  const max = model.api === "openai-completions" ? 40 : 64;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${call.slice(0, max - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
