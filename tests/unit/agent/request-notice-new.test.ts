/**
 * The chat's request notice names only what is new to the target model (`changesNewToModel`): after a switch, the
 * first request to the new model notices the older history's changes; a later request (its own answer now in the
 * history) notices only what came after that answer.
 */
import { describe, expect, it } from "vitest";
import { changesNewToModel } from "@/lib/agent-session/request-notice";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { toolCallIdNormalizerFor } from "@/lib/llm/tool-call-ids";
import { transformMessages } from "@/lib/llm/transform-messages";
import { createTransformReport, summarizeTransformReport } from "@/lib/llm/transform-report";
import { type AssistantMessage, emptyUsage, type Message, type UserMessage } from "@/lib/llm/types";

const claude = MODEL_CATALOG.find((m) => m.id === "claude-sonnet-4-5")!;
const gpt = MODEL_CATALOG.find((m) => m.id === "gpt-5")!;
const textOnly: Model = { ...gpt, input: ["text"] };
const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
const user = (content: UserMessage["content"]): UserMessage => ({ role: "user", content, timestamp: 1 });
const answer = (source: Model, content: AssistantMessage["content"]): AssistantMessage => ({
  role: "assistant",
  content,
  api: source.api,
  provider: source.provider,
  model: source.id,
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 2,
});

const notices = (input: Message[]) => {
  const report = createTransformReport();
  transformMessages(input, textOnly, toolCallIdNormalizerFor(textOnly), { report });
  return {
    all: summarizeTransformReport(report),
    fresh: summarizeTransformReport(changesNewToModel(report, input, textOnly)),
  };
};

describe("changesNewToModel", () => {
  const before: Message[] = [
    user([{ type: "text", text: "look" }, img, img]),
    answer(claude, [
      { type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
      { type: "text", text: "a cat" },
    ]),
  ];

  it("the first request after the switch: everything the older history lost", () => {
    const { all, fresh } = notices([...before, user("and now?")]);
    const expected = [
      "2 images not sent: this model has no image input",
      "thinking from another model sent as text",
      "thinking signatures from another model dropped",
    ];
    expect(all).toEqual(expected);
    expect(fresh).toEqual(expected);
  });

  it("a later request: only what came after the model's own last answer", () => {
    const later = [
      ...before,
      user("and now?"),
      answer(textOnly, [{ type: "text", text: "still a cat" }]),
      user([{ type: "text", text: "this one" }, img]),
    ];
    const { all, fresh } = notices(later);
    expect(all).toEqual([
      "3 images not sent: this model has no image input",
      "thinking from another model sent as text",
      "thinking signatures from another model dropped",
    ]);
    expect(fresh).toEqual(["1 image not sent: this model has no image input"]);
    // Nothing new after its answer: no notice at all.
    expect(notices([...later.slice(0, 4), user("plain")]).fresh).toEqual([]);
  });
});
