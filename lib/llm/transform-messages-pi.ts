/**
 * pi's `transformMessages` (`packages/ai/src/api/transform-messages.ts`, pi's `transform-messages.ts`) as
 * the first stage of Strata's `transformMessages` (transform-messages.ts, which re-exports the constants here),
 * working on {@link Item}s so each change can be reported (transform-report-collect.ts).
 */
import type { IdTarget, ToolCallIdNormalizer } from "./tool-call-ids";
import type { TransformChange } from "./transform-report";
import {
  blockOrigin,
  fromAnotherModel,
  Inserted,
  type Item,
  NO_IMAGE_INPUT,
  type Origin,
  type ReportRecorder,
} from "./transform-report-collect";
import type {
  AssistantMessage,
  ImageContent,
  Message,
  TextContent,
  ToolCall,
  ToolResultMessage,
} from "./types";

/** Placeholder for a run of images in a user message sent to a model without image input (pi's `transform-messages.ts`). */
export const NON_VISION_USER_IMAGE_PLACEHOLDER = "(image omitted: model does not support images)";
/** Placeholder for a run of images in a tool result sent to a model without image input (pi's `transform-messages.ts`). */
export const NON_VISION_TOOL_IMAGE_PLACEHOLDER = "(tool image omitted: model does not support images)";
/** Text of a synthetic tool result for a call that has none (pi's `transform-messages.ts`). */
export const NO_RESULT_PROVIDED = "No result provided";

/** What `transformMessages` needs to know about the target model. */
export interface TransformTarget extends IdTarget {
  input: readonly ("text" | "image")[];
}

export type Recorder = ReportRecorder | undefined;

/**
 * pi's `replaceImagesWithPlaceholder`: each run of images → one placeholder; a placeholder text also ends a run
 * (the images after it go without a new one). Each run is reported as one `image_replaced` change.
 */
function replaceImagesWithPlaceholder(
  item: Item,
  content: (TextContent | ImageContent)[],
  placeholder: string,
  rec: Recorder,
): Item {
  const result: TextContent[] = [];
  const blocks: number[] = [];
  let previousWasPlaceholder = false;
  let run: { start: number; count: number; placeholder: boolean } | undefined;
  const endRun = () => {
    if (run && rec)
      rec.add(item.origin, {
        kind: "image_replaced",
        reason: NO_IMAGE_INPUT,
        blockIndex: run.start,
        count: run.count,
        detail: { placeholder: run.placeholder ? placeholder : null },
      });
    run = undefined;
  };
  let k = 0;
  for (const block of content) {
    const origin = blockOrigin(item, k++);
    if (block.type === "image") {
      if (run) run.count++;
      else run = { start: origin, count: 1, placeholder: !previousWasPlaceholder };
      if (!previousWasPlaceholder) {
        result.push({ type: "text", text: placeholder });
        blocks.push(-1);
      }
      previousWasPlaceholder = true;
      continue;
    }
    endRun();
    result.push(block);
    blocks.push(origin);
    previousWasPlaceholder = block.text === placeholder;
  }
  endRun();
  return { ...item, message: { ...item.message, content: result } as Message, blocks };
}

function downgradeUnsupportedImages(items: Item[], model: TransformTarget, rec: Recorder): Item[] {
  if (model.input.includes("image")) return items;
  return items.map((item) => {
    const message = item.message;
    if (message.role === "user" && Array.isArray(message.content))
      return replaceImagesWithPlaceholder(item, message.content, NON_VISION_USER_IMAGE_PLACEHOLDER, rec);
    if (message.role === "toolResult")
      return replaceImagesWithPlaceholder(item, message.content, NON_VISION_TOOL_IMAGE_PLACEHOLDER, rec);
    return item;
  });
}

/** Whether an assistant message was produced by the target model: same provider, api and model id (13.x). */
export function isSameModel(message: AssistantMessage, model: IdTarget): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

/** A synthetic result (pi's `transform-messages.ts`) as an item: its origin names the call it answers. */
export function syntheticResult(call: ToolCall, callMessage: Origin, callBlock: number): Item {
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: NO_RESULT_PROVIDED }],
    isError: true,
    timestamp: Date.now(),
  };
  return { message, origin: new Inserted(callMessage, callBlock) };
}

/** pi's first pass over one assistant message (pi's `transform-messages.ts`): thinking, text and tool calls. */
function transformAssistant(
  item: Item,
  message: AssistantMessage,
  model: TransformTarget,
  normalizeToolCallId: ToolCallIdNormalizer | undefined,
  toolCallIdMap: Map<string, string>,
  rec: Recorder,
): Item {
  const same = isSameModel(message, model);
  const why = rec && !same ? fromAnotherModel(message, model) : "";
  const blocks: number[] = [];
  const note = (blockIndex: number, change: Omit<TransformChange, "messageIndex" | "blockIndex">) =>
    rec?.add(item.origin, { blockIndex, ...change });
  const content = message.content.flatMap((block, k): AssistantMessage["content"] => {
    const origin = blockOrigin(item, k);
    const keep = (kept: AssistantMessage["content"][number]) => {
      blocks.push(origin);
      return [kept];
    };
    if (block.type === "thinking") {
      if (block.redacted) {
        if (same) return keep(block);
        note(origin, { kind: "thinking_dropped", reason: `redacted, ${why}`, detail: { redacted: true } });
        return [];
      }
      if (same && block.thinkingSignature) return keep(block);
      if (!block.thinking || block.thinking.trim() === "") {
        const reason = same ? "blank" : `blank, ${why}`;
        note(origin, { kind: "thinking_dropped", reason, detail: { redacted: false } });
        return [];
      }
      if (same) return keep(block);
      if (block.thinkingSignature)
        note(origin, { kind: "signature_dropped", reason: why, detail: { fields: ["thinkingSignature"] } });
      note(origin, { kind: "thinking_to_text", reason: why });
      return keep({ type: "text", text: block.thinking });
    }
    if (block.type === "text") {
      if (same) return keep(block);
      const fields = rec ? Object.keys(block).filter((key) => key !== "type" && key !== "text") : [];
      if (fields.length > 0) note(origin, { kind: "signature_dropped", reason: why, detail: { fields } });
      return keep({ type: "text", text: block.text });
    }
    // A part of a type this version does not know (a newer pi's) passes as it is, as in pi; providers skip it.
    if ((block as { type: string }).type !== "toolCall") return keep(block);
    let call: ToolCall = block;
    if (!same && call.thoughtSignature) {
      note(origin, { kind: "signature_dropped", reason: why, detail: { fields: ["thoughtSignature"] } });
      const { thoughtSignature: _dropped, ...rest } = call;
      call = rest;
    }
    if (!same && normalizeToolCallId) {
      const id = normalizeToolCallId(block.id, model, message);
      if (id !== block.id) {
        toolCallIdMap.set(block.id, id);
        call = { ...call, id };
        rec?.idReason(item.origin, origin, `${why}: normalized for ${model.api}`);
      }
    }
    return keep(call);
  });
  return { ...item, message: { ...message, content }, blocks };
}

/** pi's function on an already copied list. */
export function piTransform(
  items: Item[],
  model: TransformTarget,
  normalizeToolCallId: ToolCallIdNormalizer | undefined,
  rec: Recorder,
): Item[] {
  const toolCallIdMap = new Map<string, string>();
  // pi's `transform-messages.ts` / pi's `transform-messages.ts`: null or missing content becomes [].
  const normalized = items.map((item): Item => {
    if (item.message.content != null) return item;
    rec?.add(item.origin, { kind: "content_normalized", reason: "content was null or missing" });
    return { ...item, message: { ...item.message, content: [] } as Message, blocks: [] };
  });
  const imageAware = downgradeUnsupportedImages(normalized, model, rec);

  // First pass: thinking, text and tool calls of assistant messages; result ids follow renamed calls.
  const transformed = imageAware.map((item): Item => {
    const message = item.message;
    if (message.role === "system" || message.role === "user") return item;
    if (message.role === "toolResult") {
      const id = toolCallIdMap.get(message.toolCallId);
      return id && id !== message.toolCallId ? { ...item, message: { ...message, toolCallId: id } } : item;
    }
    return transformAssistant(item, message, model, normalizeToolCallId, toolCallIdMap, rec);
  });

  // Second pass: synthetic results for calls without one; system messages held until the calls are answered.
  const result: Item[] = [];
  let pending: { call: ToolCall; origin: Origin; block: number }[] = [];
  let answered = new Set<string>();
  let held: Item[] = [];
  const flush = () => {
    for (const { call, origin, block } of pending)
      if (!answered.has(call.id)) result.push(syntheticResult(call, origin, block));
    pending = [];
    answered = new Set();
    result.push(...held);
    held = [];
  };
  for (const item of transformed) {
    const message = item.message;
    if (message.role === "assistant") {
      flush();
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        const reason = message.stopReason === "error" ? "the turn ended in an error" : "the turn was aborted";
        rec?.add(item.origin, { kind: "turn_skipped", reason });
        continue;
      }
      const calls: typeof pending = [];
      message.content.forEach((block, k) => {
        if (block.type === "toolCall")
          calls.push({ call: block, origin: item.origin, block: blockOrigin(item, k) });
      });
      if (calls.length > 0) {
        pending = calls;
        answered = new Set();
      }
      result.push(item);
    } else if (message.role === "toolResult") {
      answered.add(message.toolCallId);
      result.push(item);
    } else if (message.role === "system" && pending.length > 0) {
      held.push(item);
      rec?.hold(item.origin);
    } else {
      if (message.role === "user") flush();
      result.push(item);
    }
  }
  flush();
  return result;
}
