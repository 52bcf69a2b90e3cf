/** Catalog sections 7 (pure parts) and 15: the session projection, exact to pi. */
import { beforeEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import type { SessionEntry } from "@/lib/session/entries";
import {
  buildContextEntries,
  buildSessionContext,
  buildSessionPath,
  getSessionContextSettings,
  getUnansweredToolCalls,
  sessionEntryToContextMessages,
} from "@/lib/session/projection";
import {
  branchedSessionEntries,
  buildSessionTree,
  getSessionName,
  resolveLabels,
  sanitizeSessionName,
} from "@/lib/session/tree";
import { assistant, entry, msg, resetClock, system, T0, toolCallMsg, toolResult, ts, user } from "./helpers";

const ids = (entries: SessionEntry[]) => entries.map((e) => e.id);
const texts = (messages: AgentMessage[]) =>
  messages.map((m) => {
    if (m.role === "compactionSummary") return `summary:${m.summary}`;
    if (m.role === "branchSummary") return `branch:${m.summary}`;
    if (m.role === "system") return "system";
    if ("content" in m) {
      const c = m.content as string | { type: string; text?: string }[];
      return typeof c === "string" ? c : c.map((b) => b.text ?? b.type).join("");
    }
    return m.role;
  });

beforeEach(() => resetClock());

describe("7. session tree and projection", () => {
  it("7.1 path: null leaf → [], known leaf → its path, omitted or unknown leaf → last entry", () => {
    const e = [msg("1", null, user("a")), msg("2", "1", assistant("b")), msg("3", "1", user("c"))];
    expect(buildSessionPath(e, null)).toEqual([]);
    expect(ids(buildSessionPath(e, "2"))).toEqual(["1", "2"]);
    expect(ids(buildSessionPath(e))).toEqual(["1", "3"]);
    expect(ids(buildSessionPath(e, "nope"))).toEqual(["1", "3"]);
    expect(buildSessionPath([], undefined)).toEqual([]);
  });

  it("7.2 a missing parent ends the walk (orphaned entries)", () => {
    const e = [msg("1", null, user("a")), msg("2", "missing", user("b"))];
    expect(ids(buildSessionPath(e, "2"))).toEqual(["2"]);
  });

  it("7.3 siblings are separate branches", () => {
    const e = [
      msg("1", null, user("a")),
      msg("2", "1", assistant("b")),
      msg("3", "2", user("c")),
      msg("4", "2", user("d")),
    ];
    expect(ids(buildSessionPath(e, "4"))).toEqual(["1", "2", "4"]);
    expect(ids(buildSessionPath(e, "3"))).toEqual(["1", "2", "3"]);
  });

  it("7.4 settings come from the whole path, compaction notwithstanding", () => {
    const e = [
      entry("thinking_level_change", "t1", null, { thinkingLevel: "high" }),
      entry("model_change", "m1", "t1", { provider: "openai", modelId: "gpt-x" }),
      msg("1", "m1", user("a")),
      msg("2", "1", assistant("b", { provider: "anthropic", model: "claude-b" } as Partial<AgentMessage>)),
      entry("compaction", "k1", "2", { summary: "S", firstKeptEntryId: "k1", tokensBefore: 9 }),
    ];
    expect(getSessionContextSettings(e)).toEqual({
      thinkingLevel: "high",
      model: { provider: "anthropic", modelId: "claude-b" },
    });
    expect(buildSessionContext(e)).toMatchObject({
      thinkingLevel: "high",
      model: { provider: "anthropic", modelId: "claude-b" },
    });
    expect(getSessionContextSettings([])).toEqual({ thinkingLevel: "off", model: null });
  });

  it("7.5 entry → messages for every entry type", () => {
    const cm = entry("custom_message", "c", null, {
      customType: "x",
      content: "hi",
      display: true,
      details: { k: 1 },
    });
    expect(sessionEntryToContextMessages(cm)).toEqual([
      {
        role: "custom",
        customType: "x",
        content: "hi",
        display: true,
        details: { k: 1 },
        timestamp: Date.parse(cm.timestamp),
      },
    ]);
    const bs = entry("branch_summary", "b", null, { fromId: "z", summary: "went elsewhere" });
    expect(sessionEntryToContextMessages(bs)).toEqual([
      { role: "branchSummary", summary: "went elsewhere", fromId: "z", timestamp: Date.parse(bs.timestamp) },
    ]);
    const sys = system({ a: "A" });
    const k = entry("compaction", "k", null, {
      summary: "S",
      firstKeptEntryId: "k",
      tokensBefore: 5,
      systemMessage: sys,
    });
    expect(sessionEntryToContextMessages(k)).toEqual([
      sys,
      { role: "compactionSummary", summary: "S", tokensBefore: 5, timestamp: Date.parse(k.timestamp) },
    ]);
    for (const type of [
      "thinking_level_change",
      "model_change",
      "usage",
      "custom",
      "label",
      "session_info",
      "context_edit",
      "future_thing",
    ])
      expect(sessionEntryToContextMessages(entry(type, "x", null, { targetId: "k" }))).toEqual([]);
  });

  it("7.6 custom_message with display:false is still in context", () => {
    const e = [
      msg("1", null, user("a")),
      entry("custom_message", "c", "1", { customType: "x", content: "hidden", display: false }),
    ];
    expect(texts(buildSessionContext(e).messages)).toEqual(["a", "hidden"]);
  });

  it("7.7 a compaction keeps the latest summary, then entries from firstKeptEntryId, then later entries", () => {
    const e = [
      msg("1", null, user("first")),
      msg("2", "1", assistant("response1")),
      msg("3", "2", user("second")),
      msg("4", "3", assistant("response2")),
      entry("compaction", "5", "4", { summary: "S", firstKeptEntryId: "3", tokensBefore: 100 }),
      msg("6", "5", user("third")),
      msg("7", "6", assistant("response3")),
    ];
    expect(ids(buildContextEntries(e))).toEqual(["5", "3", "4", "6", "7"]);
    expect(texts(buildSessionContext(e).messages)).toEqual([
      "summary:S",
      "second",
      "response2",
      "third",
      "response3",
    ]);
    const two = [
      ...e,
      entry("compaction", "8", "7", { summary: "S2", firstKeptEntryId: "6", tokensBefore: 200 }),
    ];
    expect(texts(buildSessionContext(two).messages)).toEqual(["summary:S2", "third", "response3"]);
  });

  it("7.8 non-message entries in the kept range stay in buildContextEntries", () => {
    const e = [
      msg("1", null, user("u1")),
      msg("2", "1", assistant("a1")),
      entry("custom", "3", "2", { customType: "state" }),
      msg("4", "3", user("u2")),
      msg("5", "4", assistant("a2")),
      entry("compaction", "6", "5", { summary: "S", firstKeptEntryId: "4", tokensBefore: 1 }),
      entry("custom", "7", "6", { customType: "state" }),
      entry("custom", "8", "7", { customType: "state" }),
    ];
    expect(ids(buildContextEntries(e))).toEqual(["6", "4", "5", "7", "8"]);
    expect(texts(buildSessionContext(e).messages)).toEqual(["summary:S", "u2", "a2"]);
  });

  it("7.9 the compaction's systemMessage precedes its summary and supersedes kept system messages; later ones stay", () => {
    const snap = system({ p: "P2" }, 9);
    const e = [
      msg("s1", null, system({ p: "P1" })),
      msg("1", "s1", user("a")),
      msg("s2", "1", system({ q: "Q" })),
      msg("2", "s2", assistant("b")),
      entry("compaction", "k", "2", {
        summary: "S",
        firstKeptEntryId: "1",
        tokensBefore: 1,
        systemMessage: snap,
      }),
      msg("s3", "k", system({ r: "R" })),
      msg("3", "s3", user("c")),
    ];
    const m = buildSessionContext(e).messages;
    expect(m.map((x) => x.role)).toEqual([
      "system",
      "compactionSummary",
      "user",
      "assistant",
      "system",
      "user",
    ]);
    expect(m[0]).toBe(snap);
    expect((m[4] as { sections: unknown }).sections).toEqual({ r: "R" });
  });

  it("7.10 an older compaction inside the kept range stays an entry but contributes nothing", () => {
    const e = [
      msg("1", null, user("a")),
      msg("2", "1", toolCallMsg("call1")),
      entry("compaction", "k1", "2", {
        summary: "OLD",
        firstKeptEntryId: "1",
        tokensBefore: 1,
        systemMessage: system({ x: "X" }),
      }),
      msg("3", "k1", toolResult("call1", "r")),
      msg("4", "3", assistant("done")),
      entry("compaction", "k2", "4", { summary: "NEW", firstKeptEntryId: "2", tokensBefore: 1 }),
    ];
    expect(ids(buildContextEntries(e))).toEqual(["k2", "2", "k1", "3", "4"]);
    expect(texts(buildSessionContext(e).messages)).toEqual(["summary:NEW", "toolCall", "r", "done"]);
  });

  it("7.11 an unknown firstKeptEntryId (or the compaction's own id) keeps nothing before it", () => {
    const e = [
      msg("1", null, user("a")),
      msg("2", "1", user("b")),
      entry("compaction", "k", "2", { summary: "S", firstKeptEntryId: "zz", tokensBefore: 1 }),
      msg("3", "k", user("c")),
    ];
    expect(texts(buildSessionContext(e).messages)).toEqual(["summary:S", "c"]);
    (e[2] as { firstKeptEntryId: string }).firstKeptEntryId = "k";
    expect(texts(buildSessionContext(e).messages)).toEqual(["summary:S", "c"]);
  });

  it("7.12 a compaction on another branch does not affect this branch", () => {
    const e = [
      msg("1", null, user("a")),
      msg("2", "1", assistant("b")),
      entry("compaction", "k", "2", { summary: "S", firstKeptEntryId: "k", tokensBefore: 1 }),
      msg("3", "k", user("after compaction")),
      msg("4", "2", user("other branch")),
    ];
    expect(texts(buildSessionContext(e, "4").messages)).toEqual(["a", "b", "other branch"]);
    expect(texts(buildSessionContext(e, "3").messages)).toEqual(["summary:S", "after compaction"]);
  });

  it("7.13 branch_summary entries are ordinary path entries", () => {
    const e = [
      entry("model_change", "m1", null, { provider: "anthropic", modelId: "claude-a" }),
      entry("thinking_level_change", "t1", "m1", { thinkingLevel: "off" }),
      msg("s1", "t1", system({ p: "P" })),
      msg("u1", "s1", user("first")),
      msg("a1", "u1", assistant("answer")),
      msg("x1", "a1", user("abandoned")),
      entry("branch_summary", "bs1", "a1", { fromId: "x1", summary: "Tried an abandoned idea." }),
      msg("u4", "bs1", user("after branch")),
    ];
    expect(ids(buildSessionPath(e, "u4"))).toEqual(["m1", "t1", "s1", "u1", "a1", "bs1", "u4"]);
    expect(texts(buildSessionContext(e, "u4").messages)).toEqual([
      "system",
      "first",
      "answer",
      "branch:Tried an abandoned idea.",
      "after branch",
    ]);
  });

  it("7.14 context_edit replaces content, keeps toolCallId; null removes; last edit wins", () => {
    const e = [
      msg("u1", null, user("read it")),
      msg("a1", "u1", toolCallMsg("c1")),
      msg("r2", "a1", toolResult("c1", "huge output")),
      msg("u2", "r2", user("thanks")),
      entry("context_edit", "e1", "u2", {
        targetId: "r2",
        replacement: { content: [{ type: "text", text: "[elided]" }] },
      }),
      entry("context_edit", "e2", "e1", { targetId: "u2", replacement: { content: "first edit" } }),
      entry("context_edit", "e3", "e2", { targetId: "u2", replacement: { content: "second edit" } }),
      entry("context_edit", "e4", "e3", { targetId: "u1", replacement: null }),
    ];
    const m = buildSessionContext(e).messages;
    expect(m[1]).toEqual({
      role: "toolResult",
      toolCallId: "c1",
      toolName: "read",
      content: [{ type: "text", text: "[elided]" }],
      isError: false,
      timestamp: 3,
    });
    expect(texts(m)).toEqual(["toolCall", "[elided]", "second edit"]);
  });

  it("7.15 a string replacement becomes a text block for assistant/toolResult, stays a string for user/custom", () => {
    const e = [
      msg("u1", null, user("u")),
      msg("a1", "u1", assistant("a")),
      entry("custom_message", "c1", "a1", {
        customType: "x",
        content: [{ type: "text", text: "c" }],
        display: true,
      }),
      entry("context_edit", "e1", "c1", { targetId: "a1", replacement: { content: "A2" } }),
      entry("context_edit", "e2", "e1", { targetId: "u1", replacement: { content: "U2" } }),
      entry("context_edit", "e3", "e2", { targetId: "c1", replacement: { content: "C2" } }),
    ];
    const m = buildSessionContext(e).messages as { content: unknown }[];
    expect(m.map((x) => x.content)).toEqual(["U2", [{ type: "text", text: "A2" }], "C2"]);
  });

  it("7.17 edits are branch-local; kept-range edits apply; edits dropped by a compaction do not", () => {
    const e = [
      msg("1", null, user("a")),
      msg("2", "1", user("b")),
      entry("context_edit", "x", "2", { targetId: "1", replacement: null }),
      msg("3", "1", user("other branch")),
    ];
    expect(texts(buildSessionContext(e, "3").messages)).toEqual(["a", "other branch"]);
    expect(texts(buildSessionContext(e, "x").messages)).toEqual(["b"]);
    resetClock();
    const k = [
      msg("1", null, user("a")),
      entry("context_edit", "x", "1", { targetId: "1", replacement: null }),
      msg("2", "x", user("b")),
      entry("compaction", "k", "2", { summary: "S", firstKeptEntryId: "1", tokensBefore: 1 }),
    ];
    expect(texts(buildSessionContext(k).messages)).toEqual(["summary:S", "b"]);
    const dropped = [
      msg("1", null, user("a")),
      entry("context_edit", "x", "1", { targetId: "1", replacement: { content: "edited" } }),
      msg("2", "x", user("b")),
      entry("compaction", "k", "2", { summary: "S", firstKeptEntryId: "2", tokensBefore: 1 }),
    ];
    expect(texts(buildSessionContext(dropped).messages)).toEqual(["summary:S", "b"]);
  });

  it("7.21 getTree: roots (null/self parent, orphans), children oldest first, labels resolved", () => {
    const e: SessionEntry[] = [
      { type: "message", id: "1", parentId: null, timestamp: ts(1), message: user("a") },
      { type: "message", id: "3", parentId: "1", timestamp: ts(5), message: user("late") },
      { type: "message", id: "2", parentId: "1", timestamp: ts(2), message: user("early") },
      { type: "message", id: "o", parentId: "missing", timestamp: ts(3), message: user("orphan") },
      { type: "message", id: "s", parentId: "s", timestamp: ts(4), message: user("self") },
      { type: "label", id: "l1", parentId: "2", timestamp: ts(6), targetId: "2", label: "checkpoint" },
    ];
    const tree = buildSessionTree(e);
    expect(tree.map((n) => n.entry.id)).toEqual(["1", "o", "s"]);
    expect(tree[0].children.map((n) => n.entry.id)).toEqual(["2", "3"]);
    expect(tree[0].children[0]).toMatchObject({ label: "checkpoint", labelTimestamp: ts(6) });
  });

  it("7.22 labels: last wins, empty clears; session name: last session_info trimmed, newline sanitising", () => {
    const e = [
      msg("1", null, user("a")),
      entry("label", "l1", "1", { targetId: "1", label: "one" }),
      entry("label", "l2", "l1", { targetId: "1", label: "two" }),
      entry("label", "l3", "l2", { targetId: "l1", label: "x" }),
      entry("label", "l4", "l3", { targetId: "l1", label: "" }),
      entry("session_info", "i1", "l4", { name: "  My session  " }),
    ];
    expect([...resolveLabels(e)].map(([k, v]) => [k, v.label])).toEqual([["1", "two"]]);
    expect(getSessionName(e)).toBe("My session");
    expect(getSessionName([...e, entry("session_info", "i2", "i1", { name: "  " })])).toBeUndefined();
    expect(sanitizeSessionName(" a\r\nb\n\nc ")).toBe("a b c");
  });

  it("7.23 createBranchedSession entries: path without labels, re-parented, labels re-added at the end", () => {
    const path = [
      msg("1", null, user("a")),
      entry("label", "l1", "1", { targetId: "1", label: "start" }),
      msg("2", "l1", assistant("b")),
      entry("compaction", "k", "2", { summary: "S", firstKeptEntryId: "l1", tokensBefore: 1 }),
    ];
    const labels = resolveLabels(path);
    const out = branchedSessionEntries(path, labels, () => "newlabel");
    expect(out.map((x) => [x.id, x.parentId])).toEqual([
      ["1", null],
      ["2", "1"],
      ["k", "2"],
      ["newlabel", "k"],
    ]);
    expect((out[2] as { firstKeptEntryId: string }).firstKeptEntryId).toBe("2");
    expect(out[3]).toEqual({
      type: "label",
      id: "newlabel",
      parentId: "k",
      timestamp: path[1].timestamp,
      targetId: "1",
      label: "start",
    });
  });

  it("Strata: unanswered tool calls of the newest assistant message", () => {
    const e = [
      msg("1", null, user("a")),
      msg(
        "2",
        "1",
        assistant("", {
          content: [
            { type: "toolCall", id: "c1", name: "read", arguments: {} },
            { type: "toolCall", id: "c2", name: "read", arguments: {} },
          ],
          stopReason: "toolUse",
        } as Partial<AgentMessage>),
      ),
    ];
    expect(getUnansweredToolCalls(e)).toEqual(["c1", "c2"]);
    expect(getUnansweredToolCalls([...e, msg("3", "2", toolResult("c1", "x"))])).toEqual(["c2"]);
    expect(
      getUnansweredToolCalls([
        ...e,
        msg("3", "2", toolResult("c1", "x")),
        msg("4", "3", toolResult("c2", "y")),
      ]),
    ).toEqual([]);
    expect(getUnansweredToolCalls([...e, msg("5", "2", user("interrupt"))])).toEqual([]);
  });
});

describe("15. null / missing content defence", () => {
  it('15.2 system null → ""; user/assistant/toolResult null or missing → []', () => {
    const sys = { role: "system", content: null, timestamp: 1 } as unknown as AgentMessage;
    expect(sessionEntryToContextMessages(msg("s", null, sys))).toEqual([
      { role: "system", content: "", timestamp: 1 },
    ]);
    const u = { role: "user", timestamp: 1 } as unknown as AgentMessage;
    expect(sessionEntryToContextMessages(msg("u", null, u))).toEqual([
      { role: "user", content: [], timestamp: 1 },
    ]);
    const a = { ...assistant("x"), content: null } as unknown as AgentMessage;
    expect((sessionEntryToContextMessages(msg("a", null, a))[0] as { content: unknown }).content).toEqual([]);
    const r = { ...toolResult("c", "x"), content: undefined } as unknown as AgentMessage;
    expect((sessionEntryToContextMessages(msg("r", null, r))[0] as { content: unknown }).content).toEqual([]);
  });

  it("15.3 custom_message entry with null content → custom message content []", () => {
    const e = entry("custom_message", "c", null, { customType: "x", content: null, display: true });
    expect(sessionEntryToContextMessages(e)).toEqual([
      {
        role: "custom",
        customType: "x",
        content: [],
        display: true,
        details: undefined,
        timestamp: T0 + 1000,
      },
    ]);
  });

  it("15.4 valid content is neither copied nor changed", () => {
    const m = user("hello");
    const [out] = sessionEntryToContextMessages(msg("u", null, m));
    expect(out).toBe(m);
    expect((out as { content: unknown }).content).toBe("hello");
  });

  it("15.8 a branch_summary with an empty summary produces no message", () => {
    expect(
      sessionEntryToContextMessages(entry("branch_summary", "b", null, { fromId: "x", summary: "" })),
    ).toEqual([]);
  });
});
