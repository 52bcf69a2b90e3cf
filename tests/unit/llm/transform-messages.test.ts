import { describe, expect, it } from "vitest";
import { MODEL_CATALOG, type Model } from "@/lib/llm/models";
import { normalizeAnthropicToolCallId } from "@/lib/llm/tool-call-ids";
import { transformMessages } from "@/lib/llm/transform-messages";
import {
  type AssistantMessage,
  emptyUsage,
  type Message,
  type SystemMessage,
  type ToolResultMessage,
  type UserMessage,
} from "@/lib/llm/types";

const model = (id: string): Model => MODEL_CATALOG.find((m) => m.id === id)!;
const claude = model("claude-sonnet-4-5");
const gpt = model("gpt-5");
const textOnly: Model = { ...claude, id: "text-only", input: ["text"] };
const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
const text = (t: string) => ({ type: "text" as const, text: t });
const pi = { piCompatible: true };
const anthropicIds = (id: string) => normalizeAnthropicToolCallId(id);

const user = (content: UserMessage["content"], timestamp = 1): UserMessage => ({
  role: "user",
  content,
  timestamp,
});
const system = (content: string, timestamp = 0): SystemMessage => ({ role: "system", content, timestamp });
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
const call = (id: string, name = "read") => ({ type: "toolCall" as const, id, name, arguments: { p: 1 } });
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
const texts = (m: Message | undefined) =>
  ((m?.content ?? []) as { type: string; text?: string }[]).map((b) => b.text ?? b.type);
const synthetic = (toolCallId: string) => ({
  role: "toolResult",
  toolCallId,
  toolName: "read",
  content: [text("No result provided")],
  isError: true,
  timestamp: expect.any(Number),
});

describe("transformMessages (pi 13, 15)", () => {
  it("13.1 / 15.1 null or missing content becomes [] without throwing", () => {
    const broken = [
      { role: "user", content: null, timestamp: 1 },
      {
        role: "assistant",
        api: claude.api,
        provider: "anthropic",
        model: claude.id,
        stopReason: "stop",
        timestamp: 2,
      },
      {
        role: "toolResult",
        toolCallId: "x",
        toolName: "r",
        content: undefined,
        isError: false,
        timestamp: 3,
      },
    ] as unknown as Message[];
    const out = transformMessages(broken, claude, undefined, pi);
    expect(out.map((m) => m.content)).toEqual([[], [], []]);
    expect(() => transformMessages(broken, claude)).not.toThrow();
  });

  it("13.2 user images → one placeholder per run for a text-only model", () => {
    const out = transformMessages(
      [user([text("see"), img, img, text("after"), img])],
      textOnly,
      undefined,
      pi,
    );
    expect(texts(out[0])).toEqual([
      "see",
      "(image omitted: model does not support images)",
      "after",
      "(image omitted: model does not support images)",
    ]);
  });

  it("13.3 tool-result images → one placeholder; a placeholder text suppresses a following one", () => {
    const out = transformMessages(
      [
        assistant([call("t1")]),
        result("t1", [img, img]),
        result("t1", [text("(tool image omitted: model does not support images)"), img]),
      ],
      textOnly,
      undefined,
      pi,
    );
    expect(texts(out[1])).toEqual(["(tool image omitted: model does not support images)"]);
    expect(texts(out[2])).toEqual(["(tool image omitted: model does not support images)"]);
  });

  it("13.4 vision models keep images; string user content is never changed", () => {
    const messages = [user([img]), user("plain")];
    expect(transformMessages(messages, claude, undefined, pi)).toEqual(messages);
    expect(transformMessages([user("plain")], textOnly, undefined, pi)).toEqual([user("plain")]);
  });

  it("13.5 same model keeps redacted, signed (even empty) and non-blank unsigned thinking", () => {
    const [out] = transformMessages(
      [
        assistant(
          [
            { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "d", redacted: true },
            { type: "thinking", thinking: "", thinkingSignature: "sig" },
            { type: "thinking", thinking: "plan" },
            { type: "thinking", thinking: "  " },
            { type: "text", text: "hi", textSignature: "ts" },
          ],
          claude,
          "stop",
        ),
      ],
      claude,
      undefined,
      pi,
    );
    expect(out?.content).toEqual([
      { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "d", redacted: true },
      { type: "thinking", thinking: "", thinkingSignature: "sig" },
      { type: "thinking", thinking: "plan" },
      { type: "text", text: "hi", textSignature: "ts" },
    ]);
  });

  it("13.6 another model: redacted and blank thinking dropped, thinking → text, signatures removed", () => {
    const [out] = transformMessages(
      [
        assistant(
          [
            { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "d", redacted: true },
            { type: "thinking", thinking: " ", thinkingSignature: "sig" },
            { type: "thinking", thinking: "plan", thinkingSignature: "sig" },
            { type: "text", text: "hi", textSignature: "ts" },
          ],
          claude,
          "stop",
        ),
      ],
      gpt,
      undefined,
      pi,
    );
    expect(out?.content).toEqual([text("plan"), text("hi")]);
  });

  it("13.7 another model: thoughtSignature removed from tool calls", () => {
    const [out] = transformMessages(
      [assistant([{ ...call("t1"), thoughtSignature: "c2ln" }], model("gemini-2.5-pro"))],
      claude,
      undefined,
      pi,
    );
    expect(out?.content).toEqual([call("t1")]);
  });

  it("13.8 another model + normalizer: ids normalized and results renamed", () => {
    const long = "x".repeat(80);
    const out = transformMessages(
      [assistant([call("call_1|fc/+=abc"), call(long)], gpt), result("call_1|fc/+=abc"), result(long)],
      claude,
      anthropicIds,
      pi,
    );
    expect(out.map((m) => (m.role === "toolResult" ? m.toolCallId : undefined)).slice(1)).toEqual([
      "call_1_fc___abc",
      "x".repeat(64),
    ]);
    expect((out[0] as AssistantMessage).content.map((b) => (b.type === "toolCall" ? b.id : ""))).toEqual([
      "call_1_fc___abc",
      "x".repeat(64),
    ]);
  });

  it("13.9 same model: ids and signatures untouched", () => {
    const messages = [assistant([{ ...call("call|odd/id"), thoughtSignature: "s" }]), result("call|odd/id")];
    expect(transformMessages(messages, claude, anthropicIds, pi)).toEqual(messages);
  });

  it("13.10 errored and aborted turns removed without synthetic results; pi passes a later orphan result", () => {
    const messages = [
      user("go"),
      assistant([call("t1")], claude, "error"),
      result("t1"),
      assistant([call("t2")], claude, "aborted"),
      user("again"),
    ];
    expect(transformMessages(messages, claude, undefined, pi)).toEqual([
      user("go"),
      result("t1"),
      user("again"),
    ]);
  });

  it("13.11 synthetic result before the next user message, after real ones, in call order", () => {
    const out = transformMessages(
      [user("go"), assistant([call("t1"), call("t2"), call("t3")]), result("t2"), user("next")],
      claude,
      undefined,
      pi,
    );
    expect(out.slice(2)).toEqual([result("t2"), synthetic("t1"), synthetic("t3"), user("next")]);
  });

  it("13.12 synthetic result before the next assistant message", () => {
    const out = transformMessages(
      [user("go"), assistant([call("t1")]), assistant([text("later")], claude, "stop")],
      claude,
      undefined,
      pi,
    );
    expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(out[2]).toEqual(synthetic("t1"));
  });

  it("13.13 synthetic result at the end", () => {
    const out = transformMessages([user("go"), assistant([call("t1")])], claude, undefined, pi);
    expect(out[2]).toEqual(synthetic("t1"));
  });

  it("13.14 a system message arriving while calls are pending is emitted after their results", () => {
    const head = [system("sys"), user("go"), assistant([call("t1")])];
    expect(
      transformMessages([...head, system("update"), result("t1"), user("u")], claude, undefined, pi),
    ).toEqual([...head, result("t1"), system("update"), user("u")]);
    expect(transformMessages([...head, system("update"), user("u")], claude, undefined, pi)).toEqual([
      ...head,
      synthetic("t1"),
      system("update"),
      user("u"),
    ]);
  });

  it("13.15 system and user messages pass unchanged; results are never merged or reordered", () => {
    const messages = [system("s"), user("u"), assistant([call("a"), call("b")]), result("b"), result("a")];
    expect(transformMessages(messages, claude, undefined, pi)).toEqual(messages);
  });

  it("works on a deep copy: the stored messages are never changed", () => {
    const messages = [user([img]), assistant([call("a|b")], gpt), result("a|b")];
    const before = structuredClone(messages);
    transformMessages(messages, textOnly, anthropicIds);
    expect(messages).toEqual(before);
  });
});

describe("Strata replay repairs", () => {
  it("fix a: a result whose call is not in the preceding assistant message is dropped", () => {
    const messages = [user("go"), assistant([call("t1")], claude, "error"), result("t1"), user("again")];
    expect(transformMessages(messages, claude)).toEqual([user("go"), user("again")]);
    const dup = transformMessages([user("go"), assistant([call("t1")]), result("t1"), result("t1")], claude);
    expect(dup.filter((m) => m.role === "toolResult")).toHaveLength(1);
  });

  it("fix b: no empty or whitespace-only text reaches the wire", () => {
    const out = transformMessages(
      [
        user("go"),
        user("  "),
        user([text(""), text(" \n")]),
        assistant([text(" "), call("t1")]),
        result("t1", [text("")]),
        assistant([text("\t")], claude, "stop"),
      ],
      claude,
    );
    expect(out).toEqual([user("go"), assistant([call("t1")]), result("t1", [text("(no tool output)")])]);
  });

  it("fix d: unpaired surrogates become U+FFFD everywhere; pairs are kept", () => {
    const out = transformMessages(
      [user("a\uD800b\uDC00c 😀"), assistant([{ ...call("t1"), arguments: { k: "x\uDBFF" } }]), result("t1")],
      claude,
    );
    expect(out[0]?.content).toBe("a\uFFFDb\uFFFDc 😀");
    expect((out[1] as AssistantMessage).content[0]).toMatchObject({ arguments: { k: "x\uFFFD" } });
  });

  it("ids are made valid for the target and unique in the request", () => {
    const out = transformMessages(
      [
        user("go"),
        assistant([call("a/b"), call("a+b")]),
        result("a/b"),
        result("a+b"),
        user("more"),
        assistant([call("a_b")]),
        result("a_b"),
      ],
      claude,
      anthropicIds,
    );
    const ids = out.flatMap((m) =>
      m.role === "assistant" ? m.content.map((b) => (b.type === "toolCall" ? b.id : "")) : [],
    );
    expect(ids).toEqual(["a_b", "a_b_2", "a_b_3"]);
    expect(
      out.filter((m) => m.role === "toolResult").map((m) => (m as ToolResultMessage).toolCallId),
    ).toEqual(ids);
  });

  it("drops assistant turns before the first user message", () => {
    expect(transformMessages([assistant([call("t1")]), result("t1"), user("go")], claude)).toEqual([
      user("go"),
    ]);
  });
});
