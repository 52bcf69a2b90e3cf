/**
 * The chat's notice of a request that was sent with something dropped or replaced for its model (issue 13): the
 * run hands a fresh `TransformReport` collector (lib/llm/transform-report.ts) to each provider call, and — when
 * the report's summary has lines — emits `{ type: "request_notice", notices }` before the call's events, so the
 * run's event log (lib/runs) has it just ahead of that turn's assistant `message_start`. Strata's own event; pi
 * has no equivalent (it shows nothing of what `transformMessages` did).
 */

import type { AssistantStreamEvent } from "@/lib/agent/types";
import type { IdTarget } from "@/lib/llm/tool-call-ids";
import { isSameModel } from "@/lib/llm/transform-messages";
import { createTransformReport, type TransformReport } from "@/lib/llm/transform-report";
import type { Message } from "@/lib/llm/types";

/** The run event: one line per kind of change, e.g. `2 images not sent: this model has no image input`. */
export interface RequestNoticeEvent {
  type: "request_notice";
  notices: string[];
}

/**
 * Wrap one provider call: `start(report)` must start the request and fill `report` before it returns (as
 * `streamAssistant` does: `prepareRequest` runs synchronously on the call, before the first await); then
 * `summarize(report)` — `summarizeTransformReport` — gives the notice lines, emitted once (only when non-empty)
 * before any event of the call is yielded. The call's events are passed on unchanged.
 * @returns the call's events, as an async iterable (a `StreamFn` result).
 */
export async function* withRequestNotice(
  start: (report: TransformReport) => AsyncIterable<AssistantStreamEvent>,
  summarize: (report: TransformReport) => string[],
  emit: (event: RequestNoticeEvent) => Promise<void>,
): AsyncGenerator<AssistantStreamEvent> {
  const report = createTransformReport();
  const events = start(report);
  const notices = summarize(report);
  if (notices.length > 0) await emit({ type: "request_notice", notices });
  yield* events;
}

/**
 * The part of `report` that is new to the target model: the changes to messages after the last assistant message
 * in `input` that this model produced (`isSameModel`: provider, api and id). What came before that answer was sent
 * to this model, changed the same way, in an earlier request — noticing it again would repeat a model switch's
 * notices on every later request. A synthetic result counts by its call's message (`detail.callMessageIndex`).
 * `input` is the list `transformMessages` got (the report's `messageIndex` indexes it); `origins` are kept.
 * @returns a report with a subset of `report.changes`, in their order.
 */
export function changesNewToModel(
  report: TransformReport,
  input: readonly Message[],
  model: IdTarget,
): TransformReport {
  let last = -1;
  input.forEach((message, i) => {
    if (message.role === "assistant" && isSameModel(message, model)) last = i;
  });
  if (last < 0) return report;
  const changes = report.changes.filter((change) => {
    const index =
      change.messageIndex ?? (change.detail as { callMessageIndex?: unknown } | undefined)?.callMessageIndex;
    return typeof index !== "number" || index > last;
  });
  return { changes, origins: report.origins };
}
