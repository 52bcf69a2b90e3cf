/**
 * How `transformMessages` (transform-messages.ts) collects its change report (transform-report.ts): the passes
 * carry {@link Item}s and note each change on the item's input message; {@link ReportRecorder.finish} keeps the
 * changes of the messages that reach the output (a dropped message keeps only its removal), adds what is only
 * known at the end (net tool-call id and tool-name rewrites, moved system messages, inserted results with their
 * output positions) and fills the collector.
 */
import type { IdTarget } from "./tool-call-ids";
import type { TransformChange, TransformChangeKind, TransformReport } from "./transform-report";
import type { AssistantMessage, Message } from "./types";

/** The reason of every `image_replaced` change (pi's `transform-messages.ts`). */
export const NO_IMAGE_INPUT = "this model has no image input";

/** The origin of a message `transformMessages` inserted: a synthetic result for the call at that block. */
export class Inserted {
  constructor(
    /** Input index of the assistant message with the call. */
    readonly callMessage: Origin,
    /** Input index of the call's block in that message. */
    readonly callBlock: number,
  ) {}
}

/** An input index, or the call an inserted result answers. */
export type Origin = number | Inserted;

/** A message on its way through the passes, with where it and its blocks came from. */
export interface Item {
  message: Message;
  origin: Origin;
  /** For each current content block, its index in the input message's content (-1: a new block); absent: same. */
  blocks?: number[];
}

/** The input block index of the item's current block `k`. */
export function blockOrigin(item: Item, k: number): number {
  return item.blocks ? (item.blocks[k] ?? -1) : k;
}

/**
 * The reason for a change to an assistant message of another model: `from another model (provider/model)`, or
 * `from another API (api)` when only the api differs from the target's.
 */
export function fromAnotherModel(message: AssistantMessage, model: IdTarget): string {
  if (message.provider === model.provider && message.model === model.id)
    return `from another API (${message.api})`;
  return `from another model (${message.provider}/${message.model})`;
}

/** Kinds that remove their input message from the output (the only ones kept for a dropped message). */
export const REMOVAL_KINDS: ReadonlySet<TransformChangeKind> = new Set([
  "turn_skipped",
  "result_dropped",
  "message_dropped",
]);

type Note = Omit<TransformChange, "messageIndex">;

interface Row {
  anchor: number;
  rank: number;
  seq: number;
  change: TransformChange;
}

/** The collector's working state for one `transformMessages` call (internal to transform-messages.ts). */
export class ReportRecorder {
  private readonly notes = new Map<number, TransformChange[]>();
  private readonly idReasons = new Map<string, string[]>();
  private readonly held = new Set<number>();

  /** `input`: the copied input messages (after surrogate replacement), indexed as the caller's list. */
  constructor(
    private readonly input: readonly Message[],
    private readonly model: IdTarget,
  ) {}

  /** Note a change to the input message `origin` (changes to inserted messages are not noted: they are new). */
  add(origin: Origin, note: Note): void {
    if (typeof origin !== "number") return;
    const { kind, reason, ...rest } = note;
    const list = this.notes.get(origin) ?? [];
    list.push({ kind, reason, messageIndex: origin, ...rest });
    this.notes.set(origin, list);
  }

  /** Why the id of the call at (`origin`, `block`) was rewritten, one step of it. */
  idReason(origin: Origin, block: number, reason: string): void {
    if (typeof origin !== "number") return;
    const key = `${origin}:${block}`;
    this.idReasons.set(key, [...(this.idReasons.get(key) ?? []), reason]);
  }

  /** The system message `origin` was held until pending calls were answered (pi's `transform-messages.ts`). */
  hold(origin: Origin): void {
    if (typeof origin === "number") this.held.add(origin);
  }

  /** Fill `report` for the output `items` (appends changes in input order, then the output's origins). */
  finish(report: TransformReport, items: readonly Item[]): void {
    const rows: Row[] = [];
    const push = (anchor: number, rank: number, change: TransformChange) =>
      rows.push({ anchor, rank, seq: rows.length, change });
    const kept = new Set<number>();
    for (const item of items) if (typeof item.origin === "number") kept.add(item.origin);
    for (const [index, changes] of this.notes)
      for (const change of changes)
        if (kept.has(index) || REMOVAL_KINDS.has(change.kind)) push(index, 0, change);
    let maxBefore = -1;
    items.forEach((item, outputIndex) => {
      const origin = item.origin;
      if (typeof origin !== "number") {
        const message = item.message as Extract<Message, { role: "toolResult" }>;
        push(typeof origin.callMessage === "number" ? origin.callMessage : -1, 3, {
          kind: "synthetic_result_inserted",
          reason: `no result for tool call ${message.toolCallId} (${message.toolName})`,
          messageIndex: null,
          detail: {
            outputIndex,
            callMessageIndex: origin.callMessage,
            callBlockIndex: origin.callBlock,
            message,
          },
        });
        return;
      }
      this.reconcile(item, origin, (change) => push(origin, 1, change));
      if (this.held.has(origin) && maxBefore > origin)
        push(origin, 2, {
          kind: "message_moved",
          reason: "held until the pending tool calls are answered",
          messageIndex: origin,
          detail: { outputIndex },
        });
      maxBefore = Math.max(maxBefore, origin);
    });
    rows.sort((a, b) => a.anchor - b.anchor || a.rank - b.rank || a.seq - b.seq);
    for (const row of rows) report.changes.push(row.change);
    for (const item of items) report.origins.push(typeof item.origin === "number" ? item.origin : null);
  }

  /** Net id and tool-name rewrites of one output message against its input message. */
  private reconcile(item: Item, origin: number, push: (change: TransformChange) => void): void {
    const source = this.input[origin];
    const message = item.message;
    if (message.role === "toolResult" && source?.role === "toolResult") {
      if (message.toolCallId !== source.toolCallId)
        push({
          kind: "tool_call_id_rewritten",
          reason: "renamed with its call",
          messageIndex: origin,
          from: source.toolCallId,
          to: message.toolCallId,
        });
      if (message.toolName !== source.toolName)
        push({
          kind: "tool_name_filled",
          reason: "the result names no tool: named after its call",
          messageIndex: origin,
          detail: { toolName: message.toolName },
        });
    }
    if (message.role !== "assistant" || source?.role !== "assistant" || !Array.isArray(message.content))
      return;
    const before = (Array.isArray(source.content) ? source.content : []) as { id?: unknown }[];
    message.content.forEach((block, k) => {
      if (block?.type !== "toolCall") return;
      const blockIndex = blockOrigin(item, k);
      const from = before[blockIndex]?.id;
      if (from === block.id) return;
      const reasons = this.idReasons.get(`${origin}:${blockIndex}`);
      push({
        kind: "tool_call_id_rewritten",
        reason: reasons?.join("; ") ?? `rewritten for ${this.model.api}`,
        messageIndex: origin,
        blockIndex,
        from: String(from),
        to: block.id,
      });
    });
  }
}
