/**
 * The completeness check of `transformMessages`' change report (transform-report.ts): the output rebuilt from the
 * input and the report's `changes` alone. A property test (tests/property/transform-report.test.ts) holds
 * `applyTransformReport(input, report)` deep-equal to `transformMessages(input, …)`, so a change the transform
 * makes without reporting it fails there.
 */
import type { TransformChange, TransformReport } from "@/lib/llm/transform-report";
import { REMOVAL_KINDS } from "@/lib/llm/transform-report-collect";
import { sanitizeShared } from "@/lib/llm/transform-surrogates";
import type { Message } from "@/lib/llm/types";

type Block = Record<string, unknown> & { type?: unknown };

const detailOf = <T>(change: TransformChange): Partial<T> => (change.detail ?? {}) as Partial<T>;

/** One block after its changes, or `undefined` when a change removed it. */
function applyBlockChanges(block: Block, changes: readonly TransformChange[]): Block | undefined {
  let out = block;
  // Fixed order, as the passes make them: signatures, thinking → text, ids, removals.
  for (const change of changes)
    if (change.kind === "signature_dropped") {
      out = { ...out };
      for (const field of detailOf<{ fields: string[] }>(change).fields ?? []) delete out[field];
    }
  if (changes.some((change) => change.kind === "thinking_to_text"))
    out = { type: "text", text: (out as { thinking?: unknown }).thinking };
  for (const change of changes) if (change.kind === "tool_call_id_rewritten") out = { ...out, id: change.to };
  const removed = changes.some(
    (change) =>
      change.kind === "thinking_dropped" ||
      change.kind === "blank_text_removed" ||
      change.kind === "image_dropped" ||
      change.kind === "block_dropped",
  );
  return removed ? undefined : out;
}

/** The content array of one message after its block changes (`blockIndex` = index in the input content). */
function applyContentChanges(content: readonly unknown[], changes: readonly TransformChange[]): unknown[] {
  const byBlock = new Map<number, TransformChange[]>();
  for (const change of changes)
    if (change.blockIndex !== undefined)
      byBlock.set(change.blockIndex, [...(byBlock.get(change.blockIndex) ?? []), change]);
  const out: unknown[] = [];
  for (let j = 0; j < content.length; j++) {
    const blockChanges = byBlock.get(j) ?? [];
    const run = blockChanges.find((change) => change.kind === "image_replaced");
    if (run) {
      const placeholder = detailOf<{ placeholder: string | null }>(run).placeholder;
      if (typeof placeholder === "string") out.push({ type: "text", text: placeholder });
      j += (run.count ?? 1) - 1;
      continue;
    }
    const block = blockChanges.length > 0 ? applyBlockChanges(content[j] as Block, blockChanges) : content[j];
    if (block !== undefined) out.push(block);
  }
  for (const change of changes)
    if (change.kind === "blank_text_removed" && change.blockIndex === undefined) {
      const placeholder = detailOf<{ placeholder: string }>(change).placeholder;
      out.push({ type: "text", text: placeholder });
    }
  return out;
}

/** One kept input message after the changes reported for it. */
function applyMessageChanges(input: Message, changes: readonly TransformChange[]): Message {
  const has = (kind: TransformChange["kind"]) => changes.some((change) => change.kind === kind);
  let message = (has("surrogates_replaced") ? sanitizeShared(input) : input) as Message &
    Record<string, unknown>;
  if (has("content_normalized")) message = { ...message, content: [] } as typeof message;
  const contentChanges = changes.filter(
    (change) =>
      change.blockIndex !== undefined ||
      (change.kind === "blank_text_removed" && change.blockIndex === undefined),
  );
  if (contentChanges.length > 0 && Array.isArray(message.content))
    message = { ...message, content: applyContentChanges(message.content, contentChanges) } as typeof message;
  for (const change of changes) {
    if (change.kind === "tool_call_id_rewritten" && change.blockIndex === undefined)
      message = { ...message, toolCallId: change.to } as typeof message;
    if (change.kind === "tool_name_filled")
      message = { ...message, toolName: detailOf<{ toolName: string }>(change).toolName } as typeof message;
  }
  return message;
}

/**
 * The output of `transformMessages(input, model, …, { report })` rebuilt from `input` and `report.changes` only
 * (the report's `origins` is not read): removed messages (`turn_skipped`, `result_dropped`, `message_dropped`)
 * left out, each kept message rebuilt from its changes, then moved messages and inserted results put at their
 * `detail.outputIndex`. Returns the messages and, for each, the input index it came from (`null`: inserted), which
 * equals a complete report's `origins`. Does not change `input`. A report of another input gives garbage, not an
 * error.
 */
export function rebuildFromTransformReport(
  input: readonly Message[],
  report: TransformReport,
): { messages: Message[]; origins: (number | null)[] } {
  const byMessage = new Map<number, TransformChange[]>();
  const placed: { outputIndex: number; message: Message; origin: number | null }[] = [];
  for (const change of report.changes) {
    if (change.messageIndex === null) {
      if (change.kind !== "synthetic_result_inserted") continue;
      const detail = detailOf<{ outputIndex: number; message: Message }>(change);
      if (detail.message)
        placed.push({
          outputIndex: detail.outputIndex ?? 0,
          message: structuredClone(detail.message),
          origin: null,
        });
      continue;
    }
    byMessage.set(change.messageIndex, [...(byMessage.get(change.messageIndex) ?? []), change]);
  }
  const out: { message: Message; origin: number | null }[] = [];
  input.forEach((message, origin) => {
    const changes = byMessage.get(origin) ?? [];
    if (changes.some((change) => REMOVAL_KINDS.has(change.kind))) return;
    const rebuilt = applyMessageChanges(message, changes);
    const moved = changes.find((change) => change.kind === "message_moved");
    if (moved)
      placed.push({
        outputIndex: detailOf<{ outputIndex: number }>(moved).outputIndex ?? 0,
        message: rebuilt,
        origin,
      });
    else out.push({ message: rebuilt, origin });
  });
  placed.sort((a, b) => a.outputIndex - b.outputIndex);
  for (const entry of placed) out.splice(entry.outputIndex, 0, entry);
  return { messages: out.map((entry) => entry.message), origins: out.map((entry) => entry.origin) };
}

/** {@link rebuildFromTransformReport}'s messages: `transformMessages`' output rebuilt from `input` and `report`. */
export function applyTransformReport(input: readonly Message[], report: TransformReport): Message[] {
  return rebuildFromTransformReport(input, report).messages;
}
