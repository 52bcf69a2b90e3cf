/**
 * Property: `transformMessages`' change report is complete. For the payload property test's random histories
 * (tests/property/histories.ts, with system patches anywhere) and targets with and without image input, of the histories' own models and of
 * others, and in pi-compatible mode:
 * - `applyTransformReport(input, report)` deep-equals the output of the call that filled the report and has
 *   the same JSON, also from the report after a JSON round trip, and its origins equal `report.origins`;
 * - the output with a report is the output without one (byte for byte as JSON, except the `Date.now()`
 *   timestamps of inserted results), and the input is not changed;
 * - every change names an input message in range (or `null` for an inserted result) and has a reason.
 *
 * Runs and seed: tests/helpers/property.ts — `PROPERTY_RUNS` histories per target (1,000; `STRATA_PROPERTY_RUNS`;
 * `npm run test:property:deep` runs 10,000), a fresh seed each run; a failure prints the seed and the command that
 * replays it (`STRATA_PROPERTY_SEED=<seed> npx vitest run tests/property/transform-report.test.ts`). The transform
 * alone, no provider serializer: ≈ 0.45 ms per history and target on the idle 2-core machine, 7,000 in ≈ 3.5 s.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Model } from "@/lib/llm/models";
import { toolCallIdNormalizerFor } from "@/lib/llm/tool-call-ids";
import { type TransformTarget, transformMessages } from "@/lib/llm/transform-messages";
import { createTransformReport, type TransformReport } from "@/lib/llm/transform-report";
import type { Message } from "@/lib/llm/types";
import { PROPERTY_RUNS, propertyParameters } from "../helpers/property";
import { rebuildFromTransformReport } from "../helpers/transform-report-apply";
import { claude, compat, gemini3, gpt, historyArb, mistral } from "./histories";

type Target = { name: string; model: Model; piCompatible?: boolean };
const textOnly = (model: Model): Model => ({ ...model, input: ["text"] });
const TARGETS: Target[] = [
  { name: "anthropic (vision, a source model)", model: claude },
  { name: "anthropic text-only (no source's model)", model: { ...textOnly(claude), id: "claude-text" } },
  { name: "openai-responses text-only (a source model)", model: textOnly(gpt) },
  { name: "google gemini-3 (vision, a source model)", model: gemini3 },
  { name: "openai-compatible (vision, a source model)", model: compat },
  { name: "mistral text-only (a source model)", model: textOnly(mistral) },
  { name: "pi-compatible, openai-responses text-only", model: textOnly(gpt), piCompatible: true },
];

/**
 * The payload test's histories, plus up to two system patches at random places (the generator puts them only
 * between turns; here they also land between a call and its result, where pi holds them back, 13.14).
 */
const reportHistoryArb = fc
  .tuple(historyArb, fc.array(fc.nat(), { maxLength: 2 }))
  .map(([{ messages }, places]) => {
    const out = [...messages];
    for (const place of places)
      out.splice(place % (out.length + 1), 0, { role: "system", content: "patch", timestamp: 0 });
    return out;
  });

/** One `transformMessages` call for the target, with a fresh id normalizer (Mistral's is stateful). */
function run(messages: Message[], target: Target, report?: TransformReport): Message[] {
  const model: TransformTarget = target.model;
  const options = { piCompatible: target.piCompatible, ...(report ? { report } : {}) };
  return transformMessages(messages, model, toolCallIdNormalizerFor(model), options);
}

/** JSON of `messages` with the timestamps of inserted messages (origin `null`) blanked. */
function withoutInsertedTimestamps(messages: Message[], origins: (number | null)[]): string {
  return JSON.stringify(
    messages.map((message, k) => (origins[k] === null ? { ...message, timestamp: 0 } : message)),
  );
}

/** The property for one history and target; throws (an `expect`) on a counterexample. */
function checkReport(messages: Message[], target: Target): void {
  const before = JSON.stringify(messages);
  const plain = run(messages, target);
  const report = createTransformReport();
  const output = run(messages, target, report);
  expect(JSON.stringify(messages)).toBe(before);
  expect(report.origins).toHaveLength(output.length);
  expect(withoutInsertedTimestamps(output, report.origins)).toBe(
    withoutInsertedTimestamps(plain, report.origins),
  );
  for (const change of report.changes) {
    expect(change.reason.length).toBeGreaterThan(0);
    if (change.messageIndex === null) expect(change.kind).toBe("synthetic_result_inserted");
    else expect(change.messageIndex >= 0 && change.messageIndex < messages.length).toBe(true);
  }
  // Deep-equal, and the same JSON (key order and undefined fields included); prototypes are not compared (the
  // generator makes some null-prototype objects, which the transform copies into plain ones).
  const rebuilt = rebuildFromTransformReport(messages, report);
  expect(rebuilt.messages).toEqual(output);
  expect(JSON.stringify(rebuilt.messages)).toBe(JSON.stringify(output));
  expect(rebuilt.origins).toEqual(report.origins);
  const roundTripped = rebuildFromTransformReport(messages, JSON.parse(JSON.stringify(report)));
  expect(JSON.stringify(roundTripped.messages)).toBe(JSON.stringify(output));
}

/** Kinds the histories cannot make: user parts of unknown types, results without a tool name. */
const NOT_GENERATED = new Set(["block_dropped", "tool_name_filled"]);
const ALL_KINDS = [
  "content_normalized",
  "image_replaced",
  "image_dropped",
  "thinking_to_text",
  "thinking_dropped",
  "signature_dropped",
  "tool_call_id_rewritten",
  "turn_skipped",
  "synthetic_result_inserted",
  "message_moved",
  "result_dropped",
  "blank_text_removed",
  "message_dropped",
  "surrogates_replaced",
];
const seen = new Set<string>();

describe("transformMessages' change report rebuilds its output", () => {
  for (const target of TARGETS)
    it(`${target.name}: applyTransformReport(input, report) equals the output`, () => {
      let changes = 0;
      fc.assert(
        fc.property(reportHistoryArb, (messages) => {
          checkReport(messages, target);
          const report = createTransformReport();
          run(messages, target, report);
          changes += report.changes.length;
          for (const change of report.changes) seen.add(change.kind);
        }),
        propertyParameters(),
      );
      // The histories do make changes (a property over unchanged histories would prove nothing).
      expect(changes).toBeGreaterThan(PROPERTY_RUNS);
      console.info(`transform-report ${target.name}: ${changes} changes in ${PROPERTY_RUNS} histories`);
    }, 600_000);

  it("the histories make every kind of change", () => {
    expect([...seen].filter((kind) => !NOT_GENERATED.has(kind)).sort()).toEqual([...ALL_KINDS].sort());
  });
});
