/**
 * The chat's notice of a request that was sent with something dropped or replaced for its model (issue 13): the
 * run hands a fresh `TransformReport` collector (lib/llm/transform-report.ts) to each provider call, and — when
 * the report's summary has lines — emits `{ type: "request_notice", notices }` before the call's events, so the
 * run's event log (lib/runs) has it just ahead of that turn's assistant `message_start`. Strata's own event; pi
 * has no equivalent (it shows nothing of what `transformMessages` did).
 */
import { createTransformReport, type TransformReport } from "@/lib/llm/transform-report";
import type { AssistantStreamEvent } from "./types";

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
