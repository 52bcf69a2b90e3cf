/** Catalog section 8: compaction pure functions, exact to pi. */
import { beforeEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";
import {
  BRANCH_SUMMARY_PREAMBLE,
  BRANCH_SUMMARY_PROMPT,
  collectEntriesForBranchSummary,
  generateBranchSummary,
} from "@/lib/session/compaction/branch-summarization";
import {
  buildSummarizationPrompt,
  compact,
  DEFAULT_COMPACTION_SETTINGS,
  estimateTokens,
  findCutPoint,
  isSplitTurn,
  prepareCompaction,
  SUMMARIZATION_PROMPT,
  shouldCompact,
  UPDATE_SUMMARIZATION_PROMPT,
} from "@/lib/session/compaction/compaction";
import {
  BRANCH_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  convertToLlm,
  SUMMARIZATION_SYSTEM_PROMPT,
  serializeConversation,
} from "@/lib/session/compaction/utils";
import { assistant, entry, msg, resetClock, toolCallMsg, toolResult, user } from "./helpers";

beforeEach(() => resetClock());

const reply = (text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-a",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: 1,
  ...extra,
});
const t100 = "x".repeat(400);

describe("8. compaction", () => {
  it("8.1 default settings", () => {
    expect(DEFAULT_COMPACTION_SETTINGS).toEqual({
      enabled: true,
      reserveTokens: 16384,
      keepRecentTokens: 20000,
    });
  });

  it("8.2 shouldCompact is enabled && tokens > window - reserve", () => {
    expect(shouldCompact(183617, 200000, DEFAULT_COMPACTION_SETTINGS)).toBe(true);
    expect(shouldCompact(183616, 200000, DEFAULT_COMPACTION_SETTINGS)).toBe(false);
    expect(shouldCompact(999999, 200000, { ...DEFAULT_COMPACTION_SETTINGS, enabled: false })).toBe(false);
  });

  it("8.3 token estimate = ceil(chars / 4) per role", () => {
    expect(estimateTokens(user("abcde"))).toBe(2);
    expect(
      estimateTokens({
        role: "user",
        content: [
          { type: "text", text: "abcd" },
          { type: "image", data: "", mimeType: "image/png" },
        ],
        timestamp: 1,
      }),
    ).toBe(Math.ceil(4804 / 4));
    const a = assistant("", {
      content: [
        { type: "text", text: "hi" },
        { type: "thinking", thinking: "hmm" },
        { type: "toolCall", id: "c", name: "read", arguments: { path: "a.ts" } },
      ],
    } as Partial<AgentMessage>);
    expect(estimateTokens(a)).toBe(Math.ceil((2 + 3 + 4 + JSON.stringify({ path: "a.ts" }).length) / 4));
    expect(
      estimateTokens({
        role: "bashExecution",
        command: "ls",
        output: "abcdef",
        cancelled: false,
        truncated: false,
        timestamp: 1,
      }),
    ).toBe(2);
    expect(
      estimateTokens({ role: "compactionSummary", summary: "12345", tokensBefore: 1, timestamp: 1 }),
    ).toBe(2);
    const tools = [{ name: "read", description: "d", parameters: {} }];
    expect(
      estimateTokens({
        role: "system",
        content: "abc",
        sections: { a: "12345", b: null },
        toolsAdded: tools,
        timestamp: 1,
      }),
    ).toBe(Math.ceil((3 + 5 + JSON.stringify(tools).length) / 4));
    expect(estimateTokens(toolResult("c", "12345678"))).toBe(2);
  });

  it("8.4 findCutPoint / isSplitTurn with 100-token messages", () => {
    const entries = [
      msg("u1", null, user(t100)),
      msg("a1", "u1", toolCallMsg("c1")),
      entry("thinking_level_change", "t1", "a1", { thinkingLevel: "high" }),
      msg("u2", "t1", user(t100)),
      msg("a2", "u2", toolCallMsg("c2")),
      msg("r2", "a2", toolResult("c2", t100)),
    ];
    expect(findCutPoint(entries, 0, entries.length, 150)).toEqual({
      firstKeptEntryIndex: 2,
      turnStartIndex: 0,
      isSplitTurn: true,
    });
    expect(findCutPoint(entries, 0, entries.length, 50)).toEqual({
      firstKeptEntryIndex: 4,
      turnStartIndex: 3,
      isSplitTurn: true,
    });
    expect(findCutPoint(entries, 0, entries.length, 1e9)).toEqual({
      firstKeptEntryIndex: 0,
      turnStartIndex: -1,
      isSplitTurn: false,
    });
    expect(entries[findCutPoint(entries, 0, entries.length, 50).firstKeptEntryIndex].id).not.toBe("r2");
    expect(isSplitTurn(entries, 4)).toBe(true);
    expect(isSplitTurn(entries, 3)).toBe(false);
  });

  it("8.5 serializeConversation: tagged parts, tool results truncated at 2000 chars, system skipped", () => {
    const messages = convertToLlm([
      { role: "system", content: "SYS", timestamp: 0 },
      user("hello"),
      assistant("", {
        content: [
          { type: "thinking", thinking: "plan" },
          { type: "text", text: "ok" },
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "a.ts", limit: 5 } },
          { type: "toolCall", id: "c2", name: "ls", arguments: {} },
        ],
      } as Partial<AgentMessage>),
      toolResult("c1", "y".repeat(2005)),
    ]);
    expect(serializeConversation(messages)).toBe(
      `[User]: hello\n\n[Assistant thinking]: plan\n\n[Assistant]: ok\n\n[Assistant tool calls]: read(path="a.ts", limit=5); ls()\n\n[Tool result]: ${"y".repeat(2000)}\n\n[... 5 more characters truncated]`,
    );
  });

  it("8.6 prompt layout, exact instruction texts and system prompt", () => {
    expect(SUMMARIZATION_SYSTEM_PROMPT).toBe(
      "You are a context summarization assistant. Your task is to read a conversation between a user and an AI assistant, then produce a structured summary following the exact format specified.\n\nDo NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the structured summary.",
    );
    expect(SUMMARIZATION_PROMPT.startsWith("The messages above are a conversation to summarize.")).toBe(true);
    for (const h of [
      "## Goal",
      "## Constraints & Preferences",
      "## Progress",
      "### Done",
      "### In Progress",
      "### Blocked",
      "## Key Decisions",
      "## Next Steps",
      "## Critical Context",
    ]) {
      expect(SUMMARIZATION_PROMPT).toContain(`\n${h}\n`);
      expect(UPDATE_SUMMARIZATION_PROMPT).toContain(`\n${h}\n`);
    }
    expect(buildSummarizationPrompt([user("hi")])).toBe(
      `<conversation>\n[User]: hi\n</conversation>\n\n${SUMMARIZATION_PROMPT}`,
    );
    expect(buildSummarizationPrompt([user("hi")], "PREV", "focus on tests")).toBe(
      `<conversation>\n[User]: hi\n</conversation>\n\n<previous-summary>\nPREV\n</previous-summary>\n\n${UPDATE_SUMMARIZATION_PROMPT}\n\nAdditional focus: focus on tests`,
    );
  });

  it("8.6 compact calls summarize with the system prompt and min(0.8 × reserve, model max)", async () => {
    const path = [
      msg("u1", null, user(t100)),
      msg("a1", "u1", assistant("done")),
      msg("u2", "a1", user(t100)),
      msg("a2", "u2", assistant("ok")),
    ];
    const prep = prepareCompaction(path, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 50 })!;
    expect(prep.firstKeptEntryId).toBe("u2");
    expect(prep.isSplitTurn).toBe(false);
    const calls: [string, string, number][] = [];
    const result = await compact(
      prep,
      async (p, s, m) => {
        calls.push([p, s, m]);
        return reply("SUMMARY");
      },
      { modelMaxTokens: 8000 },
    );
    expect(calls).toHaveLength(1);
    expect(calls[0][1]).toBe(SUMMARIZATION_SYSTEM_PROMPT);
    expect(calls[0][2]).toBe(8000);
    expect(calls[0][0]).toBe(
      `<conversation>\n[User]: ${t100}\n\n[Assistant]: done\n</conversation>\n\n${SUMMARIZATION_PROMPT}`,
    );
    expect(result).toMatchObject({
      summary: "SUMMARY",
      firstKeptEntryId: "u2",
      details: { readFiles: [], modifiedFiles: [] },
    });
    const prep2 = prepareCompaction(path, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 50 })!;
    await compact(prep2, async (_p, _s, m) => {
      calls.push(["", "", m]);
      return reply("S");
    });
    expect(calls[1][2]).toBe(Math.floor(0.8 * 16384));
  });

  it("8.7 a split turn adds a turn-prefix summary", async () => {
    const path = [
      msg("u1", null, user(t100)),
      msg("a1", "u1", assistant("first answer")),
      msg("u2", "a1", user("do it")),
      msg("a2", "u2", toolCallMsg("c1")),
      msg("r1", "a2", toolResult("c1", t100)),
      msg("a3", "r1", toolCallMsg("c2")),
      msg("r2", "a3", toolResult("c2", t100)),
    ];
    const prep = prepareCompaction(path, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 150 })!;
    expect(prep.isSplitTurn).toBe(true);
    const prompts: string[] = [];
    const result = await compact(prep, async (_p, _s, max) => {
      prompts.push(`${max}`);
      return reply(prompts.length === 1 ? "HISTORY" : "PREFIX");
    });
    expect(prompts).toEqual([`${Math.floor(0.8 * 16384)}`, `${Math.floor(0.5 * 16384)}`]);
    expect(result.summary).toBe(
      "HISTORY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX\n\n<read-files>\na.ts\n</read-files>",
    );
  });

  it("8.8 file lists: read-only files exclude modified ones, sorted, each block only if non-empty", async () => {
    const path = [
      msg("u1", null, user(t100)),
      msg("a1", "u1", toolCallMsg("c1", "read", { path: "z.ts" })),
      msg("r1", "a1", toolResult("c1", "z")),
      msg("a2", "r1", toolCallMsg("c2", "edit", { path: "b.ts" })),
      msg("r2", "a2", toolResult("c2", "ok", "edit")),
      msg("a3", "r2", toolCallMsg("c3", "read", { path: "b.ts" })),
      msg("r3", "a3", toolResult("c3", "b")),
      msg("a4", "r3", toolCallMsg("c4", "write", { path: "a.ts" })),
      msg("r4", "a4", toolResult("c4", "ok", "write")),
      msg("u2", "r4", user(t100)),
    ];
    const prep = prepareCompaction(path, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 50 })!;
    const result = await compact(prep, async () => reply("S"));
    expect(result.summary).toBe(
      "S\n\n<read-files>\nz.ts\n</read-files>\n\n<modified-files>\na.ts\nb.ts\n</modified-files>",
    );
    expect(result.details).toEqual({ readFiles: ["z.ts"], modifiedFiles: ["a.ts", "b.ts"] });
  });

  it("8.9 failure texts; nothing is returned", async () => {
    const path = [msg("u1", null, user(t100)), msg("a1", "u1", assistant("x")), msg("u2", "a1", user(t100))];
    const prep = prepareCompaction(path, { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 50 })!;
    await expect(
      compact(prep, async () => reply("", { stopReason: "error", errorMessage: "boom" })),
    ).rejects.toThrow("Summarization failed: boom");
    await expect(compact(prep, async () => reply("", { stopReason: "error" }))).rejects.toThrow(
      "Summarization failed: Unknown error",
    );
    await expect(compact(prep, async () => reply("partial", { stopReason: "length" }))).rejects.toThrow(
      "Summarization failed: generation hit the token cap and the summary is incomplete",
    );
    await expect(
      compact(prep, async () =>
        reply("", {
          content: [{ type: "toolCall", id: "c", name: "read", arguments: {} }],
          stopReason: "toolUse",
        }),
      ),
    ).rejects.toThrow("Summarization attempted to call a tool");
  });

  it("8.10 in context the summary becomes a wrapped user text", () => {
    const [m] = convertToLlm([{ role: "compactionSummary", summary: "S", tokensBefore: 1, timestamp: 5 }]);
    expect(m).toEqual({
      role: "user",
      content: [
        {
          type: "text",
          text: "The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>",
        },
      ],
      timestamp: 5,
    });
    expect(`${COMPACTION_SUMMARY_PREFIX}S${COMPACTION_SUMMARY_SUFFIX}`).toBe(
      (m.content as { text: string }[])[0].text,
    );
    const [b] = convertToLlm([{ role: "branchSummary", summary: "B", fromId: "x", timestamp: 5 }]);
    expect((b.content as { text: string }[])[0].text).toBe(`${BRANCH_SUMMARY_PREFIX}B</summary>`);
  });

  it("8.x branch summarization: collected entries, prompt, preamble, failures", async () => {
    const entries = [
      msg("1", null, user("root")),
      msg("2", "1", user("explore")),
      msg("3", "2", toolCallMsg("c1", "edit", { path: "x.ts" })),
      msg("4", "3", toolResult("c1", "ok", "edit")),
      msg("5", "1", user("other")),
    ];
    const collected = collectEntriesForBranchSummary(entries, "4", "5");
    expect(collected.commonAncestorId).toBe("1");
    expect(collected.entries.map((e) => e.id)).toEqual(["2", "3", "4"]);
    let seen = "";
    const result = await generateBranchSummary(collected.entries, {
      summarize: async (p, s, max) => {
        seen = `${s === SUMMARIZATION_SYSTEM_PROMPT}|${max}|${p}`;
        return reply("BRANCH");
      },
    });
    expect(seen).toBe(
      `true|4096|<conversation>\n[User]: explore\n\n[Assistant tool calls]: edit(path="x.ts")\n</conversation>\n\n${BRANCH_SUMMARY_PROMPT}`,
    );
    expect(result.summary).toBe(
      `${BRANCH_SUMMARY_PREAMBLE}BRANCH\n\n<modified-files>\nx.ts\n</modified-files>`,
    );
    expect(await generateBranchSummary([], { summarize: async () => reply("") })).toEqual({
      summary: "No content to summarize",
    });
    expect(
      await generateBranchSummary(collected.entries, {
        summarize: async () => reply("p", { stopReason: "length" }),
      }),
    ).toEqual({
      error: "Branch summarization failed: generation hit the token cap and the summary is incomplete",
    });
  });
});
