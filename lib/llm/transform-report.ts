/**
 * The side channel of `transformMessages` (transform-messages.ts): a structured report of every change it made to
 * the request's messages for one target model, so the context inspector and the chat's notices can show what was
 * dropped or rewritten — without any change to `transformMessages`' output. A caller passes a
 * {@link TransformReport} collector in `TransformOptions.report`; `transformMessages` fills it.
 *
 * Completeness: `applyTransformReport(input, report)` (tests/helpers/transform-report-apply.ts, the tests' check that the report is complete) rebuilds the output from the
 * input and the report alone, deep-equal to `transformMessages(input, …)`; a property test holds it to that.
 */
/** What one change did, in the field's terms. */
export type TransformChangeKind =
  /** pi's `transform-messages.ts` / pi's `transform-messages.ts`: `content` null or missing → `[]`. */
  | "content_normalized"
  /** pi's `transform-messages.ts`: a run of images in a user or tool-result message → one placeholder text (no image input). */
  | "image_replaced"
  /** Strata b: an image block with empty or missing data removed (never sent; `blockIndex`). */
  | "image_dropped"
  /** pi's `transform-messages.ts`: thinking of another model sent as plain text. */
  | "thinking_to_text"
  /** pi's `transform-messages.ts`: redacted or blank thinking dropped. */
  | "thinking_dropped"
  /** pi's `transform-messages.ts`: a text signature / pi's `transform-messages.ts` a tool call's `thoughtSignature` dropped (another model). */
  | "signature_dropped"
  /** pi's `transform-messages.ts` / pi's `transform-messages.ts` and Strata's id guarantees: a tool-call id rewritten (`from` → `to`), results renamed with it. */
  | "tool_call_id_rewritten"
  /** pi's `transform-messages.ts`: an `error` or `aborted` assistant turn skipped. */
  | "turn_skipped"
  /** pi's `transform-messages.ts`: a synthetic `No result provided` result inserted for an unanswered call. */
  | "synthetic_result_inserted"
  /** pi's `transform-messages.ts`: a system message moved after the pending calls' results. */
  | "message_moved"
  /** Strata a: a tool result whose call is not in the preceding turn, or a second result for a call, dropped. */
  | "result_dropped"
  /**
   * Strata b: a blank text block removed (`blockIndex`); without `blockIndex`, a tool result left with no content
   * sent as `(no tool output)` (`detail.placeholder`).
   */
  | "blank_text_removed"
  /** Strata b: a part of a user message that is neither text nor image (a newer pi's type) removed. */
  | "block_dropped"
  /**
   * Strata a / b: a whole message dropped: an assistant turn before the first user message
   * (`detail.cause: "before_first_user"`), or a user or assistant message left with nothing to send (`"empty"`).
   */
  | "message_dropped"
  /** Strata a: a tool result without a tool name named after its call. */
  | "tool_name_filled"
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
   * What `applyTransformReport` needs to rebuild the output exactly; JSON-serialisable. By kind:
   * - `image_replaced`: `{ placeholder: string | null }` — the text put in place of the run of `count` images
   *   starting at `blockIndex` (`null`: a placeholder text right before the run already stands for it, pi's `transform-messages.ts`);
   * - `signature_dropped`: `{ fields: string[] }` — the fields removed from the block (`thinkingSignature`,
   *   `textSignature`, `thoughtSignature`);
   * - `thinking_dropped`: `{ redacted: boolean }`;
   * - `blank_text_removed` without `blockIndex`: `{ placeholder: "(no tool output)" }`;
   * - `message_dropped`: `{ cause: "before_first_user" | "empty" }`;
   * - `tool_name_filled`: `{ toolName: string }`;
   * - `message_moved`: `{ outputIndex: number }` — its position in the output;
   * - `synthetic_result_inserted`: `{ outputIndex, callMessageIndex, callBlockIndex, message }` — the inserted
   *   tool result as sent (its `timestamp` is `Date.now()` of the call) and the input call it answers.
   * Other kinds have none.
   */
  detail?: unknown;
}

/**
 * The collector a caller passes as `TransformOptions.report` (a fresh one per call); `transformMessages` appends
 * to `changes`, grouped by input message in input order (an inserted result after the changes of the turn whose
 * call it answers), each message's changes in the order they were made.
 */
export interface TransformReport {
  changes: TransformChange[];
  /** For each OUTPUT message, the index of the input message it came from (`null` = inserted). Filled by `transformMessages`. */
  origins: (number | null)[];
}

/** An empty collector. */
export function createTransformReport(): TransformReport {
  return { changes: [], origins: [] };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const fieldsOf = (change: TransformChange): string[] => {
  const fields = (change.detail as { fields?: unknown } | undefined)?.fields;
  return Array.isArray(fields) ? fields.map(String) : [];
};

/**
 * The chat's notices for a request sent with `report` (one line per notable group, in this order, none when
 * nothing notable changed). `N` is the number of changes of the group (for images: images); `1` takes the
 * singular (`1 image not sent…`, `2 images not sent…`):
 * - `image_replaced`: `N images not sent: this model has no image input`;
 * - `thinking_to_text`: `thinking from another model sent as text`;
 * - `thinking_dropped` with `redacted`: `N redacted thinking blocks from another model dropped`;
 * - `signature_dropped` of `thinkingSignature` / `thoughtSignature`: `thinking signatures from another model dropped`;
 * - `signature_dropped` of `textSignature` (or other text fields): `text signatures from another model dropped`;
 * - `tool_call_id_rewritten` of a call (with `blockIndex`; a result renamed with it is not counted again):
 *   `N tool-call ids rewritten for this model`;
 * - `synthetic_result_inserted`: `N unanswered tool calls given a synthetic result`;
 * - `turn_skipped`: `N errored or aborted turns skipped`;
 * - `result_dropped`: `N orphan or duplicate tool results dropped`;
 * - `message_dropped` with cause `before_first_user`: `N assistant turns before the first user message dropped`;
 * - `block_dropped`: `N unsupported content parts dropped`.
 * Not notable (no notice): `content_normalized`, blank thinking dropped, `blank_text_removed`, `image_dropped`,
 * `message_dropped` of an empty message, `message_moved`, `tool_name_filled`, `surrogates_replaced`.
 */
export function summarizeTransformReport(report: TransformReport): string[] {
  const changes = report.changes;
  const count = (test: (change: TransformChange) => boolean) => changes.filter(test).length;
  const notices: string[] = [];
  const add = (n: number, text: (n: number) => string) => {
    if (n > 0) notices.push(text(n));
  };
  const images = changes
    .filter((change) => change.kind === "image_replaced")
    .reduce((sum, change) => sum + (change.count ?? 1), 0);
  add(images, (n) => `${plural(n, "image", "images")} not sent: this model has no image input`);
  add(
    count((c) => c.kind === "thinking_to_text"),
    () => "thinking from another model sent as text",
  );
  const redacted = (c: TransformChange) =>
    c.kind === "thinking_dropped" && (c.detail as { redacted?: unknown } | undefined)?.redacted === true;
  add(
    count(redacted),
    (n) => `${plural(n, "redacted thinking block", "redacted thinking blocks")} from another model dropped`,
  );
  const thinkingField = (field: string) => field === "thinkingSignature" || field === "thoughtSignature";
  const signatures = changes.filter((change) => change.kind === "signature_dropped").flatMap(fieldsOf);
  add(signatures.filter(thinkingField).length, () => "thinking signatures from another model dropped");
  add(
    signatures.filter((field) => !thinkingField(field)).length,
    () => "text signatures from another model dropped",
  );
  add(
    count((c) => c.kind === "tool_call_id_rewritten" && c.blockIndex !== undefined),
    (n) => `${plural(n, "tool-call id", "tool-call ids")} rewritten for this model`,
  );
  add(
    count((c) => c.kind === "synthetic_result_inserted"),
    (n) => `${plural(n, "unanswered tool call", "unanswered tool calls")} given a synthetic result`,
  );
  add(
    count((c) => c.kind === "turn_skipped"),
    (n) => `${plural(n, "errored or aborted turn", "errored or aborted turns")} skipped`,
  );
  add(
    count((c) => c.kind === "result_dropped"),
    (n) => `${plural(n, "orphan or duplicate tool result", "orphan or duplicate tool results")} dropped`,
  );
  const early = (c: TransformChange) =>
    c.kind === "message_dropped" &&
    (c.detail as { cause?: unknown } | undefined)?.cause === "before_first_user";
  add(
    count(early),
    (n) => `${plural(n, "assistant turn", "assistant turns")} before the first user message dropped`,
  );
  add(
    count((c) => c.kind === "block_dropped"),
    (n) => `${plural(n, "unsupported content part", "unsupported content parts")} dropped`,
  );
  return notices;
}
