/**
 * What pi tolerates missing in a session file, at each read site: stored messages read with defaults
 * (normalizeMessage), settings of entries without string fields, pi's file name of a header without timestamp or
 * cwd, branch-summary preparation over such entries, and unknown content parts on the way to a provider.
 */
import { describe, expect, it } from "vitest";
import { MODEL_CATALOG } from "@/lib/llm/models";
import { transformMessages } from "@/lib/llm/transform-messages";
import type { Message } from "@/lib/llm/types";
import { emptyUsage } from "@/lib/llm/types";
import { prepareBranchEntries } from "@/lib/session/compaction/branch-summarization";
import { calculateContextTokens } from "@/lib/session/compaction/compaction";
import type { SessionEntry } from "@/lib/session/entries";
import { normalizeMessage, repairMessage } from "@/lib/session/entry-repair";
import { defaultSessionFileName } from "@/lib/session/jsonl";
import { getSessionContextSettings } from "@/lib/session/projection";
import { firstEntryTimestamp } from "@/lib/session/session-file";
import { type DerivedColumns, deriveColumns } from "@/lib/session/store";
import { getSessionName } from "@/lib/session/tree";

const entry = (id: string, parentId: string | null, rest: Record<string, unknown>) =>
  ({ id, parentId, ...rest }) as unknown as SessionEntry;

describe("normalizeMessage: a stored message as readers get it", () => {
  it("an assistant without usage, api, stopReason or timestamp gets zero usage; the rest stays missing", () => {
    const stored = { role: "assistant", content: [{ type: "text", text: "a" }], provider: "p", model: "m" };
    expect(repairMessage(stored)).toEqual({ message: stored, notes: [] });
    expect(normalizeMessage(stored)).toEqual({ ...stored, usage: emptyUsage() });
    expect(normalizeMessage({ ...stored, usage: null })).toEqual({ ...stored, usage: emptyUsage() });
  });

  it("a partial usage keeps its counts (and unknown keys); what is missing is 0", () => {
    const m = normalizeMessage({
      role: "assistant",
      content: [],
      usage: { input: 120, output: 8, reasoning: 3 },
    });
    expect((m as { usage: unknown }).usage).toEqual({
      input: 120,
      output: 8,
      reasoning: 3,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    });
    // pi's calculateContextTokens: totalTokens, else the sum of the parts.
    expect(calculateContextTokens((m as unknown as { usage: never }).usage)).toBe(128);
  });

  it("null or missing content gets pi's empty content; a complete message is returned as it is", () => {
    expect(normalizeMessage({ role: "user", content: null })).toEqual({ role: "user", content: [] });
    expect(normalizeMessage({ role: "toolResult", toolCallId: "c" })).toEqual({
      role: "toolResult",
      toolCallId: "c",
      content: [],
    });
    expect(normalizeMessage({ role: "system" })).toEqual({ role: "system", content: "" });
    const user = { role: "user", content: "hi", timestamp: 1 };
    expect(normalizeMessage(user)).toBe(user);
    expect(normalizeMessage({ role: 5 })).toBeUndefined();
  });
});

describe("settings, names and file names of entries without their fields", () => {
  it("an assistant without provider/model leaves no model (pi: an unresolvable one); a level-less change is off", () => {
    const path = [
      entry("a", null, { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" }),
      entry("b", "a", { type: "thinking_level_change", thinkingLevel: "high" }),
      entry("c", "b", { type: "message", message: { role: "assistant", content: [] } }),
    ];
    expect(getSessionContextSettings(path)).toEqual({ thinkingLevel: "high", model: null });
    expect(getSessionContextSettings([...path, entry("d", "c", { type: "thinking_level_change" })])).toEqual({
      thinkingLevel: "off",
      model: null,
    });
    expect(
      getSessionContextSettings([
        entry("a", null, {
          type: "message",
          message: { role: "assistant", provider: "openai", model: "gpt-5" },
        }),
      ]).model,
    ).toEqual({ provider: "openai", modelId: "gpt-5" });
  });

  it("the store's derived columns read such entries as getSessionContextSettings does", () => {
    const paths = [
      [entry("a", null, { type: "model_change", provider: 5, modelId: "x" })],
      [entry("a", null, { type: "message", message: { role: "assistant", content: [], model: "m" } })],
      [
        entry("a", null, { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" }),
        entry("b", "a", { type: "thinking_level_change", thinkingLevel: 3 }),
      ],
    ];
    for (const path of paths) {
      let d: DerivedColumns | null = null;
      for (const e of path) d = deriveColumns(e, d);
      const stored =
        d?.modelProvider != null && d.modelId != null
          ? { provider: d.modelProvider, modelId: d.modelId }
          : null;
      const settings = getSessionContextSettings(path);
      expect(stored).toEqual(settings.model);
      expect(d?.thinkingLevel ?? "off").toBe(settings.thinkingLevel);
    }
    expect(getSessionContextSettings(paths[2]).model).toEqual({
      provider: "anthropic",
      modelId: "claude-sonnet-4-5",
    });
  });

  it("a session_info whose name is not a string names nothing", () => {
    expect(getSessionName([entry("a", null, { type: "session_info", name: 5 })])).toBeUndefined();
    expect(getSessionName([entry("a", null, { type: "session_info", name: " n " })])).toBe("n");
  });

  it("pi's file name: header timestamp, else the fallback, else the id alone; no cwd → `----`", () => {
    expect(defaultSessionFileName({ id: "s", cwd: "/srv/p", timestamp: "2026-01-01T00:00:00.000Z" })).toBe(
      "--srv-p--/2026-01-01T00-00-00-000Z_s.jsonl",
    );
    const header = { id: "s", cwd: "/srv/p" } as { id: string; cwd: string; timestamp: string };
    expect(defaultSessionFileName(header, "2026-02-02T08:30:00.000Z")).toBe(
      "--srv-p--/2026-02-02T08-30-00-000Z_s.jsonl",
    );
    expect(defaultSessionFileName(header)).toBe("--srv-p--/s.jsonl");
    expect(defaultSessionFileName({ id: "s", timestamp: "2026-01-01T00:00:00.000Z" } as never)).toBe(
      "----/2026-01-01T00-00-00-000Z_s.jsonl",
    );
    expect(firstEntryTimestamp([{}, { timestamp: 5 }, { timestamp: "t2" }, { timestamp: "t3" }])).toBe("t2");
    expect(firstEntryTimestamp([{}])).toBeUndefined();
  });
});

describe("branch summaries and providers over such entries", () => {
  it("prepareBranchEntries reads messages as the projection does (null content, no usage)", () => {
    const { messages } = prepareBranchEntries([
      entry("a", null, { type: "message", message: { role: "user", content: null } }),
      entry("b", "a", {
        type: "message",
        message: { role: "assistant", content: [{ type: "text", text: "t" }] },
      }),
      entry("c", "b", { type: "custom_message", customType: "x", display: true }),
    ]);
    expect(messages).toEqual([
      { role: "user", content: [] },
      { role: "assistant", content: [{ type: "text", text: "t" }], usage: emptyUsage() },
      {
        role: "custom",
        customType: "x",
        content: [],
        display: true,
        details: undefined,
        timestamp: Number.NaN,
      },
    ]);
  });

  it("a content part of an unknown type: kept in assistant messages (as pi), left out of user messages", () => {
    const model = MODEL_CATALOG.find((m) => m.provider === "anthropic" && m.id === "claude-sonnet-4-5");
    if (!model) throw new Error("catalog model missing");
    const messages = [
      {
        role: "user",
        content: [
          { type: "future", x: 1 },
          { type: "text", text: "q" },
        ],
        timestamp: 1,
      },
      {
        role: "assistant",
        content: [{ type: "future" }, { type: "text", text: "a" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: emptyUsage(),
        stopReason: "stop",
        timestamp: 2,
      },
    ] as unknown as Message[];
    const out = transformMessages(messages, model, (id) => id);
    expect(out.map((m) => m.content)).toEqual([
      [{ type: "text", text: "q" }],
      [{ type: "future" }, { type: "text", text: "a" }],
    ]);
  });
});
