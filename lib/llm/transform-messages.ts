/**
 * Provider-independent replay rules: pi's `transformMessages` (`packages/ai/src/api/transform-messages.ts`,
 * pi-behaviors 13.1–13.15 and 15.1), reimplemented, plus Strata's repairs beyond pi (docs/pi-differences.md,
 * "Replay to providers"). Runs on `Message[]` for one target model right before the provider conversion
 * (`lib/llm/prepare-request.ts`); its output only lives in that request.
 */
import { type IdTarget, type ToolCallIdNormalizer, uniqueToolCallId, wireToolCallId } from "./tool-call-ids";
import type { TransformReport } from "./transform-report";
import type {
  AssistantMessage,
  ImageContent,
  Message,
  TextContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from "./types";

/** Placeholder for a run of images in a user message sent to a model without image input (13.2). */
export const NON_VISION_USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
/** Placeholder for a run of images in a tool result sent to a model without image input (13.3). */
export const NON_VISION_TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";
/** Text of a synthetic tool result for a call that has none (13.11). */
export const NO_RESULT_PROVIDED = "No result provided";
/** Strata: text of a tool result left without any non-blank content (pi's Responses/Completions fallback). */
export const NO_TOOL_OUTPUT = "(no tool output)";
/** The replacement of an unpaired UTF-16 surrogate (Strata fix d). */
export const REPLACEMENT_CHARACTER = "\uFFFD";

/** What `transformMessages` needs to know about the target model. */
export interface TransformTarget extends IdTarget {
  input: readonly ("text" | "image")[];
}

/** Options of {@link transformMessages}. */
export interface TransformOptions {
  /**
   * `true`: exactly pi's function (13.x, 15.1) and nothing else (the input is still deep-copied). Default
   * `false`: pi's function followed by Strata's repairs (see {@link transformMessages}).
   */
  piCompatible?: boolean;
  /**
   * A collector for the change report (transform-report.ts): every change made is appended to `report.changes`
   * and `report.origins` is set for the output. The output is the same with or without it.
   */
  report?: TransformReport;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Any surrogate: a cheap first scan (no lookaround), so text without one is returned as is. */
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

/** Replace every unpaired UTF-16 surrogate of `text` by U+FFFD (Strata fix d; pi's `sanitizeSurrogates` deletes). */
export function replaceUnpairedSurrogates(text: string): string {
  return ANY_SURROGATE.test(text) ? text.replace(UNPAIRED_SURROGATE, REPLACEMENT_CHARACTER) : text;
}

/**
 * Set `key` as an own enumerable property, as JSON.parse does: a plain assignment of `__proto__` would set the
 * object's prototype instead (the key lost, and a value's fields inherited).
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Deep copy of a JSON-like value with every string (keys included) passed through {@link replaceUnpairedSurrogates}. */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === "string") return replaceUnpairedSurrogates(value) as T;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = sanitizeDeep(value[i]);
    return out as T;
  }
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record))
      setOwn(out, replaceUnpairedSurrogates(key), sanitizeDeep(record[key]));
    return out as T;
  }
  return value;
}

/**
 * {@link sanitizeDeep} with structural sharing: a value without an unpaired surrogate anywhere is returned as is
 * (same reference), and only the objects on the way to a changed string are copied. For values nobody mutates:
 * the transform passes build new messages and blocks instead of changing them.
 */
export function sanitizeShared<T>(value: T): T {
  if (typeof value === "string") return replaceUnpairedSurrogates(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = sanitizeShared(value[i]);
      if (item !== value[i]) {
        out ??= value.slice();
        out[i] = item;
      }
    }
    return (out ?? value) as T;
  }
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(record)) {
      const item = sanitizeShared(record[key]);
      const safeKey = replaceUnpairedSurrogates(key);
      if (item !== record[key] || safeKey !== key) {
        if (!out) {
          // Rebuild in key order so a renamed key keeps its place.
          out = {};
          for (const k of Object.keys(record)) setOwn(out, replaceUnpairedSurrogates(k), record[k]);
        }
        if (safeKey !== key) delete out[key];
        setOwn(out, safeKey, item);
      }
    }
    return (out ?? value) as T;
  }
  return value;
}

/** pi's `replaceImagesWithPlaceholder`: each run of images → one placeholder; a placeholder text also ends a run. */
function replaceImagesWithPlaceholder(
  content: (TextContent | ImageContent)[],
  placeholder: string,
): TextContent[] {
  const result: TextContent[] = [];
  let previousWasPlaceholder = false;
  for (const block of content) {
    if (block.type === "image") {
      if (!previousWasPlaceholder) result.push({ type: "text", text: placeholder });
      previousWasPlaceholder = true;
      continue;
    }
    result.push(block);
    previousWasPlaceholder = block.text === placeholder;
  }
  return result;
}

function downgradeUnsupportedImages(messages: Message[], model: TransformTarget): Message[] {
  if (model.input.includes("image")) return messages;
  return messages.map((message) => {
    if (message.role === "user" && Array.isArray(message.content)) {
      return {
        ...message,
        content: replaceImagesWithPlaceholder(message.content, NON_VISION_USER_IMAGE_PLACEHOLDER),
      };
    }
    if (message.role === "toolResult") {
      return {
        ...message,
        content: replaceImagesWithPlaceholder(message.content, NON_VISION_TOOL_IMAGE_PLACEHOLDER),
      };
    }
    return message;
  });
}

/** Whether an assistant message was produced by the target model: same provider, api and model id (13.x). */
export function isSameModel(message: AssistantMessage, model: IdTarget): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

function syntheticResult(call: ToolCall, id = call.id): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: id,
    toolName: call.name,
    content: [{ type: "text", text: NO_RESULT_PROVIDED }],
    isError: true,
    timestamp: Date.now(),
  };
}

/** pi's function on an already copied list. */
function piTransform(
  messages: Message[],
  model: TransformTarget,
  normalizeToolCallId: ToolCallIdNormalizer | undefined,
): Message[] {
  const toolCallIdMap = new Map<string, string>();
  // 13.1 / 15.1: null or missing content becomes [].
  const normalized = messages.map((message) =>
    message.content == null ? ({ ...message, content: [] } as Message) : message,
  );
  const imageAware = downgradeUnsupportedImages(normalized, model);

  // First pass: thinking, text and tool calls of assistant messages; result ids follow renamed calls.
  const transformed = imageAware.map((message): Message => {
    if (message.role === "system" || message.role === "user") return message;
    if (message.role === "toolResult") {
      const id = toolCallIdMap.get(message.toolCallId);
      return id && id !== message.toolCallId ? { ...message, toolCallId: id } : message;
    }
    const same = isSameModel(message, model);
    const content = message.content.flatMap((block): AssistantMessage["content"] => {
      if (block.type === "thinking") {
        if (block.redacted) return same ? [block] : [];
        if (same && block.thinkingSignature) return [block];
        if (!block.thinking || block.thinking.trim() === "") return [];
        if (same) return [block];
        return [{ type: "text", text: block.thinking }];
      }
      if (block.type === "text") return same ? [block] : [{ type: "text", text: block.text }];
      // A part of a type this version does not know (a newer pi's) passes as it is, as in pi; providers skip it.
      if ((block as { type: string }).type !== "toolCall") return [block];
      let call: ToolCall = block;
      if (!same && call.thoughtSignature) {
        const { thoughtSignature: _dropped, ...rest } = call;
        call = rest;
      }
      if (!same && normalizeToolCallId) {
        const id = normalizeToolCallId(block.id, model, message);
        if (id !== block.id) {
          toolCallIdMap.set(block.id, id);
          call = { ...call, id };
        }
      }
      return [call];
    });
    return { ...message, content };
  });

  // Second pass: synthetic results for calls without one; system messages held until the calls are answered.
  const result: Message[] = [];
  let pending: ToolCall[] = [];
  let answered = new Set<string>();
  let held: Message[] = [];
  const flush = () => {
    for (const call of pending) if (!answered.has(call.id)) result.push(syntheticResult(call));
    pending = [];
    answered = new Set();
    result.push(...held);
    held = [];
  };
  for (const message of transformed) {
    if (message.role === "assistant") {
      flush();
      if (message.stopReason === "error" || message.stopReason === "aborted") continue;
      const calls = message.content.filter((block): block is ToolCall => block.type === "toolCall");
      if (calls.length > 0) {
        pending = calls;
        answered = new Set();
      }
      result.push(message);
    } else if (message.role === "toolResult") {
      answered.add(message.toolCallId);
      result.push(message);
    } else if (message.role === "system" && pending.length > 0) {
      held.push(message);
    } else {
      if (message.role === "user") flush();
      result.push(message);
    }
  }
  flush();
  return result;
}

const isBlank = (text: string | undefined | null) => !text || text.trim() === "";

/**
 * Strata fix b: blank text blocks dropped (and, in user messages, parts that are neither text nor image); a user
 * or assistant message left empty is dropped.
 */
function dropBlankText(message: Message): Message | undefined {
  switch (message.role) {
    case "user": {
      if (typeof message.content === "string") return isBlank(message.content) ? undefined : message;
      // A part of an unknown type (a newer pi's, kept on import) goes too: providers would take it for an image.
      const content = message.content.filter((block) =>
        block.type === "text" ? !isBlank(block.text) : block.type === "image",
      );
      if (content.length === message.content.length && content.length > 0) return message;
      return content.length > 0 ? ({ ...message, content } as UserMessage) : undefined;
    }
    case "assistant": {
      const content = message.content.filter((block) => block.type !== "text" || !isBlank(block.text));
      if (content.length === message.content.length && content.length > 0) return message;
      return content.length > 0 ? { ...message, content } : undefined;
    }
    case "toolResult": {
      const content = message.content.filter((block) => block.type !== "text" || !isBlank(block.text));
      if (content.length === message.content.length && content.length > 0) return message;
      return {
        ...message,
        content: content.length > 0 ? content : [{ type: "text", text: NO_TOOL_OUTPUT }],
      };
    }
    default:
      return message;
  }
}

interface OpenCall {
  call: ToolCall;
  /** The id the call had before this pass (what results name). */
  original: string;
  answered: boolean;
}

/**
 * Strata fixes a, b and the id guarantees, on pi's output: blank text dropped; assistant turns before the first
 * user message dropped (a request must start with the user); every tool call id made valid for the target and
 * unique in the request; each call answered exactly once right after its turn (a result whose call is not in the
 * preceding assistant message, or that answers an already answered call, is dropped; a call left without a result
 * gets a synthetic one).
 */
function repair(messages: Message[], model: TransformTarget): Message[] {
  const out: Message[] = [];
  const used = new Set<string>();
  let open: OpenCall[] | undefined;
  let seenUser = false;
  const closeTurn = () => {
    for (const entry of open ?? []) if (!entry.answered) out.push(syntheticResult(entry.call));
    open = undefined;
  };
  for (const raw of messages) {
    const message = dropBlankText(raw);
    if (!message) continue;
    if (message.role === "toolResult") {
      const entry = open?.find(
        (candidate) => !candidate.answered && candidate.original === message.toolCallId,
      );
      if (!entry) continue;
      entry.answered = true;
      out.push({ ...message, toolCallId: entry.call.id, toolName: message.toolName || entry.call.name });
      continue;
    }
    closeTurn();
    if (message.role === "user") seenUser = true;
    if (message.role !== "assistant") {
      out.push(message);
      continue;
    }
    if (!seenUser) {
      open = [];
      continue;
    }
    const entries: OpenCall[] = [];
    const content = message.content.map((block) => {
      if (block.type !== "toolCall") return block;
      const id = uniqueToolCallId(block.id, model, used);
      used.add(wireToolCallId(id, model));
      const call = id === block.id ? block : { ...block, id };
      entries.push({ call, original: block.id, answered: false });
      return call;
    });
    open = entries;
    out.push({ ...message, content });
  }
  closeTurn();
  return out;
}

/**
 * pi's `transformMessages(messages, model, normalizeToolCallId?)` for one target model, never changing its input
 * (the stored session): rewritten messages and blocks are new objects, untouched ones are shared with the input
 * (`piCompatible` works on a deep copy, as pi does):
 * - 13.1/15.1 null or missing `content` → `[]`;
 * - 13.2–13.4 without image input, each run of images in user / tool-result arrays → one placeholder text;
 * - 13.5–13.7 assistant messages of another model (provider, api or id differ): redacted and blank thinking
 *   dropped, other thinking → plain text, text rebuilt without signature, tool-call `thoughtSignature` removed;
 *   same model: kept (blank unsigned thinking dropped);
 * - 13.8/13.9 other model + normalizer: tool-call ids normalized and later results renamed to match;
 * - 13.10 `error` / `aborted` assistant messages removed;
 * - 13.11–13.13 a call without result gets `{toolResult, "No result provided", isError: true}` before the next
 *   user or assistant message or at the end; 13.14 a system message arriving while calls are pending is emitted
 *   after their results.
 *
 * Unless `options.piCompatible`, Strata then also (docs/pi-differences.md): replaces unpaired surrogates in every
 * string by U+FFFD (d), drops blank text blocks and messages left empty, gives an empty tool result the text
 * `(no tool output)` (b), drops assistant turns before the first user message, makes every tool-call id valid for
 * the target and unique in the request, and keeps exactly one result per call right after its turn, dropping
 * orphan and duplicate results (a). Never throws on malformed content.
 */
export function transformMessages(
  messages: readonly Message[],
  model: TransformTarget,
  normalizeToolCallId?: ToolCallIdNormalizer,
  options: TransformOptions = {},
): Message[] {
  const copy = options.piCompatible
    ? (structuredClone(messages) as Message[])
    : sanitizeShared(messages as Message[]);
  const piResult = piTransform(copy, model, normalizeToolCallId);
  return options.piCompatible ? piResult : repair(piResult, model);
}
