import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { toolCallIdNormalizerFor } from "@/lib/llm/tool-call-ids";
import {
  NON_VISION_TOOL_IMAGE_PLACEHOLDER,
  NON_VISION_USER_IMAGE_PLACEHOLDER,
  transformMessages,
} from "@/lib/llm/transform-messages";
import {
  createTransformReport,
  summarizeTransformReport,
  type TransformChange,
  type TransformReport,
} from "@/lib/llm/transform-report";
import {
  type AssistantMessage,
  emptyUsage,
  type Message,
  type ToolResultMessage,
  type UserMessage,
} from "@/lib/llm/types";
import { applyTransformReport, rebuildFromTransformReport } from "../../helpers/transform-report-apply";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const claude = model("claude-sonnet-4-5");
const gpt = model("gpt-5");
const gemini = model("gemini-3-pro-preview");
const textOnlyGpt: Model = { ...gpt, input: ["text"] };
const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
const text = (t: string) => ({ type: "text" as const, text: t });
const user = (content: UserMessage["content"]): UserMessage => ({ role: "user", content, timestamp: 1 });
const assistant = (
  content: AssistantMessage["content"],
  source: Model = claude,
  stopReason: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage => ({
  role: "assistant",
  content,
  api: source.api,
  provider: source.provider,
  model: source.id,
  usage: emptyUsage(),
  stopReason,
  timestamp: 2,
});
const call = (id: string) => ({ type: "toolCall" as const, id, name: "read", arguments: { p: 1 } });
const result = (
  toolCallId: string,
  content: ToolResultMessage["content"] = [text("ok")],
): ToolResultMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: "read",
  content,
  isError: false,
  timestamp: 3,
});
const FROM_CLAUDE = "from another model (anthropic/claude-sonnet-4-5)";

/** The report of one call, after checking that it rebuilds the output and leaves the output as without it. */
function reportOf(messages: Message[], target: Model, piCompatible = false): TransformReport {
  const report = createTransformReport();
  const output = transformMessages(messages, target, toolCallIdNormalizerFor(target), {
    report,
    piCompatible,
  });
  const plain = transformMessages(messages, target, toolCallIdNormalizerFor(target), { piCompatible });
  const stamp = (list: Message[]) =>
    JSON.stringify(list.map((m, k) => (report.origins[k] === null ? { ...m, timestamp: 0 } : m)));
  expect(stamp(output)).toBe(stamp(plain));
  expect(applyTransformReport(messages, report)).toEqual(output);
  expect(rebuildFromTransformReport(messages, report).origins).toEqual(report.origins);
  return report;
}

describe("transformMessages' change report: each kind at its exact value", () => {
  it("content_normalized (pi-compatible mode keeps the emptied user message)", () => {
    const report = reportOf([user(null as unknown as string)], claude, true);
    expect(report).toEqual({
      changes: [{ kind: "content_normalized", reason: "content was null or missing", messageIndex: 0 }],
      origins: [0],
    });
  });

  it("image_replaced: one change per run of images, with its count and placeholder (none after a placeholder text)", () => {
    const messages: Message[] = [
      user([text("see"), img, img, text("after"), img]),
      user([text(NON_VISION_USER_IMAGE_PLACEHOLDER), img]),
    ];
    const report = reportOf(messages, textOnlyGpt);
    const reason = "this model has no image input";
    expect(report.changes).toEqual([
      {
        kind: "image_replaced",
        reason,
        messageIndex: 0,
        blockIndex: 1,
        count: 2,
        detail: { placeholder: NON_VISION_USER_IMAGE_PLACEHOLDER },
      },
      {
        kind: "image_replaced",
        reason,
        messageIndex: 0,
        blockIndex: 4,
        count: 1,
        detail: { placeholder: NON_VISION_USER_IMAGE_PLACEHOLDER },
      },
      {
        kind: "image_replaced",
        reason,
        messageIndex: 1,
        blockIndex: 1,
        count: 1,
        detail: { placeholder: null },
      },
    ]);
    expect(summarizeTransformReport(report)).toEqual(["4 images not sent: this model has no image input"]);
  });

  it("image_replaced in a tool result uses the tool placeholder", () => {
    const report = reportOf([user("go"), assistant([call("t1")]), result("t1", [img, img])], textOnlyGpt);
    expect(report.changes).toEqual([
      {
        kind: "image_replaced",
        reason: "this model has no image input",
        messageIndex: 2,
        blockIndex: 0,
        count: 2,
        detail: { placeholder: NON_VISION_TOOL_IMAGE_PLACEHOLDER },
      },
    ]);
  });

  it("thinking of another model: signed → signature_dropped + thinking_to_text; redacted and blank → thinking_dropped", () => {
    const messages: Message[] = [
      user("go"),
      assistant(
        [
          { type: "thinking", thinking: "plan", thinkingSignature: "sig1" },
          { type: "thinking", thinking: "[redacted]", thinkingSignature: "opaque", redacted: true },
          { type: "thinking", thinking: " ", thinkingSignature: "sig2" },
          text("done"),
        ],
        claude,
        "stop",
      ),
    ];
    const report = reportOf(messages, gpt);
    expect(report.changes).toEqual([
      {
        kind: "signature_dropped",
        reason: FROM_CLAUDE,
        messageIndex: 1,
        blockIndex: 0,
        detail: { fields: ["thinkingSignature"] },
      },
      { kind: "thinking_to_text", reason: FROM_CLAUDE, messageIndex: 1, blockIndex: 0 },
      {
        kind: "thinking_dropped",
        reason: `redacted, ${FROM_CLAUDE}`,
        messageIndex: 1,
        blockIndex: 1,
        detail: { redacted: true },
      },
      {
        kind: "thinking_dropped",
        reason: `blank, ${FROM_CLAUDE}`,
        messageIndex: 1,
        blockIndex: 2,
        detail: { redacted: false },
      },
    ]);
    expect(report.origins).toEqual([0, 1]);
    expect(summarizeTransformReport(report)).toEqual([
      "thinking from another model sent as text",
      "1 redacted thinking block from another model dropped",
      "thinking signatures from another model dropped",
    ]);
  });

  it("same model: blank unsigned thinking dropped (no notice); another API of the same model is named so", () => {
    const same = reportOf(
      [user("go"), assistant([{ type: "thinking", thinking: "" }, text("x")], claude, "stop")],
      claude,
    );
    expect(same.changes).toEqual([
      {
        kind: "thinking_dropped",
        reason: "blank",
        messageIndex: 1,
        blockIndex: 0,
        detail: { redacted: false },
      },
    ]);
    expect(summarizeTransformReport(same)).toEqual([]);
    const viaCompletions: Model = { ...gpt, api: "openai-completions" };
    const other = reportOf(
      [user("go"), assistant([{ type: "thinking", thinking: "hm" }], gpt, "stop")],
      viaCompletions,
    );
    expect(other.changes).toEqual([
      {
        kind: "thinking_to_text",
        reason: "from another API (openai-responses)",
        messageIndex: 1,
        blockIndex: 0,
      },
    ]);
  });

  it("signature_dropped: a text signature and a tool call's thought signature of another model", () => {
    const messages: Message[] = [
      user("go"),
      assistant([{ type: "text", text: "hi", textSignature: "msg_1" }], gpt, "stop"),
      user("more"),
      assistant([{ ...call("c1"), thoughtSignature: "c2ln" }], gemini),
      result("c1"),
    ];
    const report = reportOf(messages, claude);
    expect(report.changes).toEqual([
      {
        kind: "signature_dropped",
        reason: "from another model (openai/gpt-5)",
        messageIndex: 1,
        blockIndex: 0,
        detail: { fields: ["textSignature"] },
      },
      {
        kind: "signature_dropped",
        reason: "from another model (google/gemini-3-pro-preview)",
        messageIndex: 3,
        blockIndex: 0,
        detail: { fields: ["thoughtSignature"] },
      },
    ]);
    expect(summarizeTransformReport(report)).toEqual([
      "thinking signatures from another model dropped",
      "text signatures from another model dropped",
    ]);
  });

  it("tool_call_id_rewritten: normalized for the target (pi) and made unique (Strata), each result renamed with its call", () => {
    const messages: Message[] = [
      user("go"),
      assistant([call("call_1|fc/+=abc")], gpt),
      result("call_1|fc/+=abc"),
      assistant([call("dup"), call("dup")], claude),
      result("dup"),
      result("dup"),
    ];
    const report = reportOf(messages, claude);
    expect(report.changes).toEqual([
      {
        kind: "tool_call_id_rewritten",
        reason: "from another model (openai/gpt-5): normalized for anthropic-messages",
        messageIndex: 1,
        blockIndex: 0,
        from: "call_1|fc/+=abc",
        to: "call_1_fc___abc",
      },
      {
        kind: "tool_call_id_rewritten",
        reason: "renamed with its call",
        messageIndex: 2,
        from: "call_1|fc/+=abc",
        to: "call_1_fc___abc",
      },
      {
        kind: "tool_call_id_rewritten",
        reason: "already used in this request",
        messageIndex: 3,
        blockIndex: 1,
        from: "dup",
        to: "dup_2",
      },
      {
        kind: "tool_call_id_rewritten",
        reason: "renamed with its call",
        messageIndex: 5,
        from: "dup",
        to: "dup_2",
      },
    ]);
    expect(summarizeTransformReport(report)).toEqual(["2 tool-call ids rewritten for this model"]);
  });

  it("tool_call_id_rewritten: an id not valid for the target", () => {
    const report = reportOf([user("go"), assistant([call("a/b")], claude), result("a/b")], claude);
    expect(report.changes).toEqual([
      {
        kind: "tool_call_id_rewritten",
        reason: "not valid for anthropic-messages",
        messageIndex: 1,
        blockIndex: 0,
        from: "a/b",
        to: "a_b",
      },
      {
        kind: "tool_call_id_rewritten",
        reason: "renamed with its call",
        messageIndex: 2,
        from: "a/b",
        to: "a_b",
      },
    ]);
  });

  it("turn_skipped, then result_dropped for the skipped turn's orphan result and a duplicate", () => {
    const messages: Message[] = [
      user("go"),
      assistant([call("t1")], claude, "error"),
      result("t1"),
      assistant([call("t2")], claude, "aborted"),
      user("again"),
      assistant([call("t3")]),
      result("t3"),
      result("t3"),
    ];
    const report = reportOf(messages, claude);
    expect(report.changes).toEqual([
      { kind: "turn_skipped", reason: "the turn ended in an error", messageIndex: 1 },
      { kind: "result_dropped", reason: "its call is not in the preceding assistant turn", messageIndex: 2 },
      { kind: "turn_skipped", reason: "the turn was aborted", messageIndex: 3 },
      { kind: "result_dropped", reason: "its call was already answered", messageIndex: 7 },
    ]);
    expect(report.origins).toEqual([0, 4, 5, 6]);
    expect(summarizeTransformReport(report)).toEqual([
      "2 errored or aborted turns skipped",
      "2 orphan or duplicate tool results dropped",
    ]);
  });

  it("synthetic_result_inserted: the inserted result, its output position and the call it answers", () => {
    const report = reportOf(
      [user("go"), assistant([text("x"), call("t1"), call("t2")]), result("t2"), user("next")],
      claude,
    );
    expect(report.changes).toEqual([
      {
        kind: "synthetic_result_inserted",
        reason: "no result for tool call t1 (read)",
        messageIndex: null,
        detail: {
          outputIndex: 3,
          callMessageIndex: 1,
          callBlockIndex: 1,
          message: {
            role: "toolResult",
            toolCallId: "t1",
            toolName: "read",
            content: [text("No result provided")],
            isError: true,
            timestamp: expect.any(Number),
          },
        },
      },
    ]);
    expect(report.origins).toEqual([0, 1, 2, null, 3]);
    expect(summarizeTransformReport(report)).toEqual(["1 unanswered tool call given a synthetic result"]);
  });

  it("message_moved: a system patch between a call and its result goes after the result (13.14)", () => {
    const patch: Message = { role: "system", content: "patch", timestamp: 0 };
    const report = reportOf([user("go"), assistant([call("t1")]), patch, result("t1"), user("next")], claude);
    expect(report.changes).toEqual([
      {
        kind: "message_moved",
        reason: "held until the pending tool calls are answered",
        messageIndex: 2,
        detail: { outputIndex: 3 },
      },
    ]);
    expect(report.origins).toEqual([0, 1, 3, 2, 4]);
    expect(summarizeTransformReport(report)).toEqual([]);
  });

  it("blank_text_removed: blank blocks, and an emptied tool result sent as (no tool output)", () => {
    const report = reportOf(
      [user([text(" "), text("hi")]), assistant([call("t1")]), result("t1", [text("\n")])],
      claude,
    );
    expect(report.changes).toEqual([
      { kind: "blank_text_removed", reason: "blank text", messageIndex: 0, blockIndex: 0 },
      { kind: "blank_text_removed", reason: "blank text", messageIndex: 2, blockIndex: 0 },
      {
        kind: "blank_text_removed",
        reason: "no content left: sent as (no tool output)",
        messageIndex: 2,
        detail: { placeholder: "(no tool output)" },
      },
    ]);
    expect(summarizeTransformReport(report)).toEqual([]);
  });

  it("image_dropped: images without data, in a user message and a tool result (no notice)", () => {
    const empty = { type: "image" as const, data: "", mimeType: "image/png" };
    const report = reportOf(
      [user([text("look"), empty]), assistant([call("t1")]), result("t1", [empty, img])],
      gemini,
    );
    expect(report.changes).toEqual([
      { kind: "image_dropped", reason: "an image without data", messageIndex: 0, blockIndex: 1 },
      { kind: "image_dropped", reason: "an image without data", messageIndex: 2, blockIndex: 0 },
    ]);
    expect(transformMessages([user([empty])], gemini)).toEqual([]);
    expect(summarizeTransformReport(report)).toEqual([]);
  });

  it("message_dropped: an assistant turn before the first user message, and a blank user message", () => {
    const report = reportOf([assistant([text("early")], claude, "stop"), user(" "), user("go")], claude);
    expect(report.changes).toEqual([
      {
        kind: "message_dropped",
        reason: "an assistant turn before the first user message",
        messageIndex: 0,
        detail: { cause: "before_first_user" },
      },
      {
        kind: "message_dropped",
        reason: "nothing left to send",
        messageIndex: 1,
        detail: { cause: "empty" },
      },
    ]);
    expect(report.origins).toEqual([2]);
    expect(summarizeTransformReport(report)).toEqual([
      "1 assistant turn before the first user message dropped",
    ]);
  });

  it("surrogates_replaced with the number of unpaired surrogates", () => {
    const report = reportOf([user("a\uD800b\uDC00")], claude);
    expect(report.changes).toEqual([
      {
        kind: "surrogates_replaced",
        reason: "unpaired UTF-16 surrogates replaced by U+FFFD",
        messageIndex: 0,
        count: 2,
      },
    ]);
  });

  it("tool_name_filled and block_dropped", () => {
    const nameless = { ...result("t1"), toolName: "" };
    const file = { type: "file", data: "x" } as unknown as UserMessage["content"][number];
    const report = reportOf([user([text("go"), file as never]), assistant([call("t1")]), nameless], claude);
    expect(report.changes).toEqual([
      {
        kind: "block_dropped",
        reason: "a part of a type providers do not take (file)",
        messageIndex: 0,
        blockIndex: 1,
      },
      {
        kind: "tool_name_filled",
        reason: "the result names no tool: named after its call",
        messageIndex: 2,
        detail: { toolName: "read" },
      },
    ]);
    expect(summarizeTransformReport(report)).toEqual(["1 unsupported content part dropped"]);
  });

  it("a dropped message reports only its removal, and nothing is reported for a history left as it is", () => {
    const report = reportOf(
      [user("go"), assistant([{ type: "thinking", thinking: "p", thinkingSignature: "s" }], claude, "error")],
      gpt,
    );
    expect(report.changes).toEqual([
      { kind: "turn_skipped", reason: "the turn ended in an error", messageIndex: 1 },
    ]);
    expect(reportOf([user("go"), assistant([text("x")], claude, "stop")], claude)).toEqual({
      changes: [],
      origins: [0, 1],
    });
  });
});

describe("applyTransformReport needs every change", () => {
  it("leaving out any one change of a rich history gives another output", () => {
    const messages: Message[] = [
      assistant([text("early")], claude, "stop"),
      user([text("see"), img, text(" ")]),
      assistant([{ type: "thinking", thinking: "plan", thinkingSignature: "s" }, call("a/b"), call("t2")]),
      { role: "system", content: "patch", timestamp: 0 },
      result("a/b", [text("ok\uD800")]),
      result("zz"),
      assistant([text("x")], claude, "aborted"),
      user("next"),
    ];
    const report = reportOf(messages, textOnlyGpt);
    const output = JSON.stringify(applyTransformReport(messages, report));
    expect(report.changes.map((c) => c.kind)).toEqual([
      "message_dropped",
      "image_replaced",
      "blank_text_removed",
      "signature_dropped",
      "thinking_to_text",
      "tool_call_id_rewritten",
      "synthetic_result_inserted",
      "message_moved",
      "surrogates_replaced",
      "tool_call_id_rewritten",
      "result_dropped",
      "turn_skipped",
    ]);
    report.changes.forEach((change: TransformChange, k) => {
      // The thinking signature goes with the thinking block turned into text: informational only.
      if (change.kind === "signature_dropped") return;
      const without = { ...report, changes: report.changes.filter((_, j) => j !== k) };
      expect(JSON.stringify(applyTransformReport(messages, without)), change.kind).not.toBe(output);
    });
  });
});

describe("summarizeTransformReport", () => {
  const change = (kind: TransformChange["kind"], extra: Partial<TransformChange> = {}): TransformChange => ({
    kind,
    reason: "r",
    messageIndex: 0,
    ...extra,
  });

  it("singular and plural, in its fixed order; unnotable kinds give nothing", () => {
    const one: TransformReport = {
      origins: [],
      changes: [
        change("result_dropped"),
        change("turn_skipped"),
        change("synthetic_result_inserted", { messageIndex: null }),
        change("tool_call_id_rewritten", { blockIndex: 0 }),
        change("tool_call_id_rewritten"),
        change("image_replaced", { count: 1 }),
        change("blank_text_removed"),
        change("image_dropped"),
        change("surrogates_replaced"),
        change("content_normalized"),
        change("message_moved"),
        change("tool_name_filled"),
        change("message_dropped", { detail: { cause: "empty" } }),
        change("thinking_dropped", { detail: { redacted: false } }),
      ],
    };
    expect(summarizeTransformReport(one)).toEqual([
      "1 image not sent: this model has no image input",
      "1 tool-call id rewritten for this model",
      "1 unanswered tool call given a synthetic result",
      "1 errored or aborted turn skipped",
      "1 orphan or duplicate tool result dropped",
    ]);
    const two: TransformReport = { origins: [], changes: [...one.changes, ...one.changes] };
    expect(summarizeTransformReport(two)).toEqual([
      "2 images not sent: this model has no image input",
      "2 tool-call ids rewritten for this model",
      "2 unanswered tool calls given a synthetic result",
      "2 errored or aborted turns skipped",
      "2 orphan or duplicate tool results dropped",
    ]);
    expect(summarizeTransformReport(createTransformReport())).toEqual([]);
  });

  it("an Anthropic history with thinking, signatures and images sent to a non-vision OpenAI model", () => {
    const messages: Message[] = [
      user([text("look"), img, img]),
      assistant([{ type: "thinking", thinking: "plan", thinkingSignature: "sig" }, call("toolu_01")]),
      result("toolu_01", [text("seen"), img]),
      assistant(
        [{ type: "thinking", thinking: "more", thinkingSignature: "sig2" }, text("done")],
        claude,
        "stop",
      ),
    ];
    expect(summarizeTransformReport(reportOf(messages, textOnlyGpt))).toEqual([
      "3 images not sent: this model has no image input",
      "thinking from another model sent as text",
      "thinking signatures from another model dropped",
    ]);
  });
});
