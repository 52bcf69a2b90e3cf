/**
 * The side channel of `transformMessages` (transform-messages.ts): a structured report of every change it made to
 * the request's messages for one target model, so the context inspector and the chat's notices can show what was
 * dropped or rewritten — without any change to `transformMessages`' output. A caller passes a
 * {@link TransformReport} collector in `TransformOptions.report`; `transformMessages` fills it.
 *
 * Completeness: `applyTransformReport(input, report)` (transform-report-apply.ts) rebuilds the output from the
 * input and the report alone, deep-equal to `transformMessages(input, …)`; a property test holds it to that.
 */
/** What one change did, in the field's terms. */
export type TransformChangeKind =
  /** 13.1 / 15.1: `content` null or missing → `[]`. */
  | "content_normalized"
  /** 13.2–13.4: a run of images in a user or tool-result message → one placeholder text (no image input). */
  | "image_replaced"
  /** Strata: an image block with empty data removed (never sent). */
  | "image_dropped"
  /** 13.5–13.7: thinking of another model sent as plain text. */
  | "thinking_to_text"
  /** 13.5–13.7: redacted or blank thinking dropped. */
  | "thinking_dropped"
  /** 13.6: a text signature / 13.7 a tool call's `thoughtSignature` dropped (another model). */
  | "signature_dropped"
  /** 13.8 / 13.9 and Strata's id guarantees: a tool-call id rewritten (`from` → `to`), results renamed with it. */
  | "tool_call_id_rewritten"
  /** 13.10: an `error` or `aborted` assistant turn skipped. */
  | "turn_skipped"
  /** 13.11–13.13: a synthetic `No result provided` result inserted for an unanswered call. */
  | "synthetic_result_inserted"
  /** 13.14: a system message moved after the pending calls' results. */
  | "message_moved"
  /** Strata a: a tool result whose call is not in the preceding turn, or a second result for a call, dropped. */
  | "result_dropped"
  /** Strata b: blank text blocks removed; a message left empty dropped; an empty tool result → `(no tool output)`. */
  | "blank_text_removed"
  /** Strata a: an assistant turn before the first user message dropped. */
  | "message_dropped"
  /** Strata d: unpaired UTF-16 surrogates replaced by U+FFFD. */
  | "surrogates_replaced";

/** One change `transformMessages` made. */
export interface TransformChange {
  kind: TransformChangeKind;
  /** Why, as a short sentence for a person: e.g. `this model has no image input`, `from another model (anthropic/claude-sonnet-4-5)`. */
  reason: string;
  /** Index of the affected message in the INPUT list; `null` for an inserted message (synthetic result). */
  messageIndex: number | null;
  /** Index of the affected block in that input message's `content` array, when the change is to a block. */
  blockIndex?: number;
  /** For `tool_call_id_rewritten`: the old id and the new one. */
  from?: string;
  to?: string;
  /** How many items the change covers (e.g. 2 images replaced by one placeholder). Default 1. */
  count?: number;
  /**
   * Whatever `applyTransformReport` needs to rebuild the output exactly (e.g. the replacement block, the inserted
   * message, the output position). Shape is the implementer's; JSON-serialisable.
   */
  detail?: unknown;
}

/** The collector a caller passes as `TransformOptions.report`; `transformMessages` appends to `changes`. */
export interface TransformReport {
  changes: TransformChange[];
  /** For each OUTPUT message, the index of the input message it came from (`null` = inserted). Filled by `transformMessages`. */
  origins: (number | null)[];
}

/** An empty collector. */
export function createTransformReport(): TransformReport {
  return { changes: [], origins: [] };
}
