/**
 * Provider-independent replay rules: pi's `transformMessages` (`packages/ai/src/api/transform-messages.ts`,
 * pi's `transform-messages.ts`), reimplemented (transform-messages-pi.ts), plus Strata's repairs beyond pi
 * (docs/pi-differences.md, "Replay to providers"). Runs on `Message[]` for one target model right before the
 * provider conversion (`lib/llm/prepare-request.ts`); its output only lives in that request.
 *
 * Every pass works on `Item`s (a message with the input index it came from and the input index of each of its
 * blocks), so the optional change report (`options.report`, transform-report.ts) can name each change by the
 * stored message and block it touched; the passes run the same code with or without a report.
 */
import {
  isValidToolCallId,
  type ToolCallIdNormalizer,
  uniqueToolCallId,
  wireToolCallId,
} from "./tool-call-ids";
import { piTransform, syntheticResult, type TransformTarget } from "./transform-messages-pi";
import type { TransformReport } from "./transform-report";
import { blockOrigin, type Item, type Origin, ReportRecorder } from "./transform-report-collect";
import { countUnpairedSurrogates, sanitizeShared } from "./transform-surrogates";
import type { ImageContent, Message, ToolCall, UserMessage } from "./types";

export {
  isSameModel,
  NO_RESULT_PROVIDED,
  NON_VISION_TOOL_IMAGE_PLACEHOLDER,
  NON_VISION_USER_IMAGE_PLACEHOLDER,
  type TransformTarget,
} from "./transform-messages-pi";
export {
  REPLACEMENT_CHARACTER,
  replaceUnpairedSurrogates,
  sanitizeDeep,
  sanitizeShared,
} from "./transform-surrogates";

/** Strata: text of a tool result left without any non-blank content (pi's Responses/Completions fallback). */
export const NO_TOOL_OUTPUT = "(no tool output)";

/** Options of {@link transformMessages}. */
export interface TransformOptions {
  /**
   * `true`: exactly pi's function (13.x, pi's `transform-messages.ts`) and nothing else (the input is still deep-copied). Default
   * `false`: pi's function followed by Strata's repairs (see {@link transformMessages}).
   */
  piCompatible?: boolean;
  /**
   * A fresh collector (`createTransformReport()`, transform-report.ts), one per call: every change made is
   * appended to `report.changes` and the output's origins to `report.origins`. The output is the same with or
   * without it.
   */
  report?: TransformReport;
}

type Recorder = ReportRecorder | undefined;

const isBlank = (text: string | undefined | null) => !text || text.trim() === "";

/**
 * Whether an image block carries data (a non-empty base64 string). One with empty or missing data is never sent:
 * providers reject it (Strata fix b drops it; `toModelMessages` skips it too when called without the transform).
 */
export function hasImageData(block: ImageContent): boolean {
  return typeof block.data === "string" && block.data !== "";
}

/** Strata fix b: what a user or tool-result message may send: non-blank text, and images with data. */
const sendable = (block: { type: string; text?: string; data?: unknown }) =>
  block.type === "text"
    ? !isBlank(block.text)
    : block.type !== "image" || hasImageData(block as ImageContent);

/** `content` filtered by `keep`, each dropped block reported (blank text, or a part of an unknown type). */
function keepBlocks<T extends { type: string; text?: string }>(
  item: Item,
  content: T[],
  keep: (block: T) => boolean,
  rec: Recorder,
): { content: T[]; blocks: number[] } {
  const kept: T[] = [];
  const blocks: number[] = [];
  content.forEach((block, k) => {
    const blockIndex = blockOrigin(item, k);
    if (keep(block)) {
      kept.push(block);
      blocks.push(blockIndex);
    } else if (block.type === "text")
      rec?.add(item.origin, { kind: "blank_text_removed", reason: "blank text", blockIndex });
    else if (block.type === "image")
      rec?.add(item.origin, { kind: "image_dropped", reason: "an image without data", blockIndex });
    else
      rec?.add(item.origin, {
        kind: "block_dropped",
        reason: `a part of a type providers do not take (${String(block.type)})`,
        blockIndex,
      });
  });
  return { content: kept, blocks };
}

/**
 * Strata fix b: blank text blocks and images without data dropped (and, in user messages, parts that are neither
 * text nor image); a user or assistant message left empty is dropped. Runs inside {@link repair}, so the rule that a
 * request starts with the user sees what is really sent (an empty image is not a user turn).
 */
function dropBlankText(item: Item, rec: Recorder): Item | undefined {
  const message = item.message;
  const dropped = () => {
    rec?.add(item.origin, {
      kind: "message_dropped",
      reason: "nothing left to send",
      detail: { cause: "empty" },
    });
    return undefined;
  };
  switch (message.role) {
    case "user": {
      if (typeof message.content === "string") return isBlank(message.content) ? dropped() : item;
      // A part of an unknown type (a newer pi's, kept on import) goes too: providers would take it for an image.
      const { content, blocks } = keepBlocks(
        item,
        message.content,
        (block) => (block.type === "text" || block.type === "image") && sendable(block),
        rec,
      );
      if (content.length === message.content.length && content.length > 0) return item;
      return content.length > 0
        ? { ...item, message: { ...message, content } as UserMessage, blocks }
        : dropped();
    }
    case "assistant": {
      const keep = (block: { type: string; text?: string }) => block.type !== "text" || !isBlank(block.text);
      const { content, blocks } = keepBlocks(item, message.content, keep, rec);
      if (content.length === message.content.length && content.length > 0) return item;
      return content.length > 0 ? { ...item, message: { ...message, content }, blocks } : dropped();
    }
    case "toolResult": {
      const { content, blocks } = keepBlocks(item, message.content, sendable, rec);
      if (content.length === message.content.length && content.length > 0) return item;
      if (content.length > 0) return { ...item, message: { ...message, content }, blocks };
      rec?.add(item.origin, {
        kind: "blank_text_removed",
        reason: `no content left: sent as ${NO_TOOL_OUTPUT}`,
        detail: { placeholder: NO_TOOL_OUTPUT },
      });
      return {
        ...item,
        message: { ...message, content: [{ type: "text", text: NO_TOOL_OUTPUT }] },
        blocks: [-1],
      };
    }
    default:
      return item;
  }
}

interface OpenCall {
  call: ToolCall;
  /** The id the call had before this pass (what results name). */
  original: string;
  answered: boolean;
  /** The assistant message's origin and the call's input block index (for a synthetic result's report). */
  origin: Origin;
  block: number;
}

/**
 * Strata fixes a, b and the id guarantees, on pi's output: blank text dropped; assistant turns before the first
 * user message dropped (a request must start with the user); every tool call id made valid for the target and
 * unique in the request; each call answered exactly once right after its turn (a result whose call is not in the
 * preceding assistant message, or that answers an already answered call, is dropped; a call left without a result
 * gets a synthetic one).
 */
function repair(items: Item[], model: TransformTarget, rec: Recorder): Item[] {
  const out: Item[] = [];
  const used = new Set<string>();
  let open: OpenCall[] | undefined;
  let seenUser = false;
  const closeTurn = () => {
    for (const entry of open ?? [])
      if (!entry.answered) out.push(syntheticResult(entry.call, entry.origin, entry.block));
    open = undefined;
  };
  for (const raw of items) {
    const item = dropBlankText(raw, rec);
    if (!item) continue;
    const message = item.message;
    if (message.role === "toolResult") {
      const entry = open?.find(
        (candidate) => !candidate.answered && candidate.original === message.toolCallId,
      );
      if (!entry) {
        const duplicate = open?.some((candidate) => candidate.original === message.toolCallId);
        const reason = duplicate
          ? "its call was already answered"
          : "its call is not in the preceding assistant turn";
        rec?.add(item.origin, { kind: "result_dropped", reason });
        continue;
      }
      entry.answered = true;
      const toolName = message.toolName || entry.call.name;
      out.push({ ...item, message: { ...message, toolCallId: entry.call.id, toolName } });
      continue;
    }
    closeTurn();
    if (message.role === "user") seenUser = true;
    if (message.role !== "assistant") {
      out.push(item);
      continue;
    }
    if (!seenUser) {
      open = [];
      const reason = "an assistant turn before the first user message";
      rec?.add(item.origin, { kind: "message_dropped", reason, detail: { cause: "before_first_user" } });
      continue;
    }
    const entries: OpenCall[] = [];
    const content = message.content.map((block, k) => {
      if (block.type !== "toolCall") return block;
      const id = uniqueToolCallId(block.id, model, used);
      used.add(wireToolCallId(id, model));
      const blockIndex = blockOrigin(item, k);
      if (id !== block.id && rec) {
        const valid = isValidToolCallId(block.id, model);
        rec.idReason(
          item.origin,
          blockIndex,
          valid ? "already used in this request" : `not valid for ${model.api}`,
        );
      }
      const call = id === block.id ? block : { ...block, id };
      entries.push({ call, original: block.id, answered: false, origin: item.origin, block: blockIndex });
      return call;
    });
    open = entries;
    out.push({ ...item, message: { ...message, content } });
  }
  closeTurn();
  return out;
}

/**
 * pi's `transformMessages(messages, model, normalizeToolCallId?)` for one target model, never changing its input
 * (the stored session): rewritten messages and blocks are new objects, untouched ones are shared with the input
 * (`piCompatible` works on a deep copy, as pi does):
 * - null or missing `content` → `[]`;
 * - without image input, each run of images in user / tool-result arrays → one placeholder text;
 * - assistant messages of another model (provider, api or id differ): redacted and blank thinking
 *   dropped, other thinking → plain text, text rebuilt without signature, tool-call `thoughtSignature` removed;
 *   same model: kept (blank unsigned thinking dropped);
 * - other model + normalizer: tool-call ids normalized and later results renamed to match;
 * - `error` / `aborted` assistant messages removed;
 * - a call without result gets `{toolResult, "No result provided", isError: true}` before the next
 *   user or assistant message or at the end; a system message arriving while calls are pending is emitted
 *   after their results.
 *
 * Unless `options.piCompatible`, Strata then also (docs/pi-differences.md): replaces unpaired surrogates in every
 * string by U+FFFD (d), drops blank text blocks, images without data and messages left empty, gives an empty tool
 * result the text `(no tool output)` (b), drops assistant turns before the first user message (after b, so an
 * empty image is no user turn), makes every tool-call id valid for the target and unique in the request, and keeps
 * exactly one result per call right after its turn, dropping orphan and duplicate results (a). Never throws on
 * malformed content.
 *
 * With `options.report`, each of these changes is also reported there (transform-report.ts), so that
 * `applyTransformReport(messages, report)` rebuilds the output; the output itself is the same.
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
  const rec = options.report ? new ReportRecorder(copy, model) : undefined;
  if (rec && !options.piCompatible)
    copy.forEach((message, i) => {
      if (message === messages[i]) return;
      const count = countUnpairedSurrogates(messages[i]);
      rec.add(i, {
        kind: "surrogates_replaced",
        reason: "unpaired UTF-16 surrogates replaced by U+FFFD",
        count,
      });
    });
  const items = piTransform(
    copy.map((message, origin) => ({ message, origin })),
    model,
    normalizeToolCallId,
    rec,
  );
  const out = options.piCompatible ? items : repair(items, model, rec);
  if (rec && options.report) rec.finish(options.report, out);
  return out.map((item) => item.message);
}
