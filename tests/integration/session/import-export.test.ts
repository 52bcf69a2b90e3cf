/**
 * pi JSONL import/export against Postgres (catalog 16) and the compaction race: a compaction requested
 * between a tool call and its result, then a second compaction, still leaves every tool call followed
 * by its own result.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { DbScope } from "@/lib/db/client";
import { type AssistantMessage, emptyUsage } from "@/lib/llm/types";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { compact } from "@/lib/session/compaction/compaction";
import { loadAllEntries, loadSessionContext } from "@/lib/session/context-load";
import { exportSessionJsonl, importSessionJsonl } from "@/lib/session/import-export";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import { buildSessionContext } from "@/lib/session/projection";
import {
  appendCompaction,
  appendEntry,
  CompactionPendingError,
  createSession,
  prepareSessionCompaction,
} from "@/lib/session/store";

const fixture = readFileSync(new URL("../../fixtures/sessions/pi-tour.jsonl", import.meta.url), "utf8");
let scope: DbScope;
let projectId: string;
let projectRoot: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await getLocalActor(scope);
  const project = await insertProject(scope, { workspaceId: actor.workspaceId, name: "jsonl", source: null });
  projectId = project.id;
  projectRoot = project.rootPath;
});
afterAll(async () => {
  await scope.release();
});

describe("16. import / export", () => {
  it("a pi file imported and exported again is byte-identical; ids, parents, leaf and context preserved", async () => {
    const { session, diagnostics, migrated } = await importSessionJsonl(scope, projectId, fixture);
    expect(diagnostics).toEqual([]);
    expect(migrated).toBe(false);
    // The header's cwd (/srv/project) is outside the project: the session works in the project root.
    expect(session).toMatchObject({ cwd: projectRoot, title: "README tour", leafId: "a0000016" });
    expect(await exportSessionJsonl(scope, session.id)).toBe(fixture);
    const parsed = parseSessionJsonl(fixture);
    expect(await loadAllEntries(scope, session.id)).toEqual(parsed.entries);
    for (const e of parsed.entries)
      expect(await loadSessionContext(scope, session.id, e.id), e.id).toEqual(
        buildSessionContext(parsed.entries, e.id),
      );
  });

  it("a v1 file is migrated on import and exported as v3; torn and invalid lines are reported", async () => {
    const v1 = [
      { type: "session", id: "legacy", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/old" },
      {
        type: "message",
        timestamp: "2025-01-01T00:00:01.000Z",
        message: { role: "user", content: "a", timestamp: 1 },
      },
      {
        type: "compaction",
        timestamp: "2025-01-01T00:00:02.000Z",
        summary: "S",
        firstKeptEntryIndex: 1,
        tokensBefore: 10,
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n");
    const { session, diagnostics, migrated } = await importSessionJsonl(
      scope,
      projectId,
      `${v1}\nnope\n{"type":"mess`,
    );
    expect(migrated).toBe(true);
    expect(diagnostics.map((d) => [d.line, d.kind])).toEqual([
      [4, "invalid-json"],
      [5, "torn-last-line"],
    ]);
    const out = await exportSessionJsonl(scope, session.id);
    const reparsed = parseSessionJsonl(out);
    expect(reparsed.header).toEqual({
      type: "session",
      id: "legacy",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: "/old",
      version: 3,
    });
    expect(reparsed.migrated).toBe(false);
    const [m, k] = reparsed.entries;
    expect(k).toMatchObject({ parentId: m.id, firstKeptEntryId: m.id });
    expect((await loadSessionContext(scope, session.id)).messages.map((x) => x.role)).toEqual([
      "compactionSummary",
      "user",
    ]);
  });
});

const usage = emptyUsage();
const callMsg = (...ids: string[]): AgentMessage => ({
  role: "assistant",
  content: ids.map((id) => ({ type: "toolCall", id, name: "read", arguments: { path: `${id}.ts` } })),
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-a",
  usage,
  stopReason: "toolUse",
  timestamp: 2,
});
const resultMsg = (id: string): AgentMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text: `contents of ${id} `.repeat(30) }],
  isError: false,
  timestamp: 3,
});
const reply: AssistantMessage = {
  ...(callMsg() as AssistantMessage),
  content: [{ type: "text", text: "SUMMARY" }],
  stopReason: "stop",
};

/** Every assistant tool call is followed, immediately, by results for exactly its calls. */
function assertCallsPaired(messages: AgentMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "toolResult") {
      const prev = messages
        .slice(0, i)
        .reverse()
        .find((x) => x.role !== "toolResult");
      expect(prev?.role, `result ${m.toolCallId} follows its call`).toBe("assistant");
    }
    if (m.role !== "assistant") continue;
    const ids = m.content.filter((b) => b.type === "toolCall").map((b) => (b as { id: string }).id);
    const results = messages
      .slice(i + 1, i + 1 + ids.length)
      .map((r) => (r.role === "toolResult" ? r.toolCallId : r.role));
    expect(results).toEqual(ids);
  }
}

describe("compaction race (Strata contract; pi differs)", () => {
  it("a compaction requested between a call and its result waits; after a second compaction every call is paired", async () => {
    const s = await createSession(scope, { projectId, cwd: "/race" });
    const add = (message: AgentMessage) => appendEntry(scope, s.id, { type: "message", message });
    const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 150 };
    await add({ role: "user", content: "start ".repeat(100), timestamp: 1 });
    await add(callMsg("c1", "c2"));

    expect(await prepareSessionCompaction(scope, s.id, settings)).toEqual({
      status: "pending",
      toolCallIds: ["c1", "c2"],
    });
    await expect(
      appendCompaction(scope, s.id, { summary: "X", firstKeptEntryId: null, tokensBefore: 1 }),
    ).rejects.toBeInstanceOf(CompactionPendingError);
    await add(resultMsg("c1"));
    await expect(
      appendCompaction(scope, s.id, { summary: "X", firstKeptEntryId: null, tokensBefore: 1 }),
    ).rejects.toThrow("Cannot compact while tool calls are unanswered: c2; retry after their results");
    await add(resultMsg("c2"));

    const runCompaction = async () => {
      const plan = await prepareSessionCompaction(scope, s.id, settings);
      if (plan.status !== "ready") throw new Error(`expected ready, got ${plan.status}`);
      const result = await compact(plan.preparation, async () => reply);
      return appendCompaction(scope, s.id, { ...result }, { expectedLeaf: plan.leafId });
    };
    const k1 = await runCompaction();
    assertCallsPaired((await loadSessionContext(scope, s.id)).messages);

    await add(callMsg("c3"));
    expect(await prepareSessionCompaction(scope, s.id, settings)).toMatchObject({
      status: "pending",
      toolCallIds: ["c3"],
    });
    await add(resultMsg("c3"));
    await add({ role: "user", content: "more ".repeat(100), timestamp: 4 });
    await add(callMsg("c4"));
    await add(resultMsg("c4"));
    const k2 = await runCompaction();
    expect(k2.id).not.toBe(k1.id);

    const all = await loadAllEntries(scope, s.id);
    const branch = all.map((e) => e.type);
    expect(branch.filter((t) => t === "compaction")).toHaveLength(2);
    // No compaction entry sits between a call and its result on the branch.
    for (let i = 0; i < all.length; i++) {
      if (all[i].type !== "compaction") continue;
      const next = all[i + 1] as { message?: AgentMessage } | undefined;
      expect(next?.message?.role).not.toBe("toolResult");
    }
    const ctx = await loadSessionContext(scope, s.id);
    assertCallsPaired(ctx.messages);
    expect(ctx.messages.filter((m) => m.role === "compactionSummary")).toHaveLength(1);
    expect(ctx).toEqual(buildSessionContext(all));
  });

  it("a pi file with a compaction between a call and its result (pi's bug shape) still projects paired calls", async () => {
    const lines = [
      { type: "session", version: 3, id: "race", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/r" },
      {
        type: "message",
        id: "u1",
        parentId: null,
        timestamp: "2026-01-01T00:00:01.000Z",
        message: { role: "user", content: "go", timestamp: 1 },
      },
      {
        type: "message",
        id: "a1",
        parentId: "u1",
        timestamp: "2026-01-01T00:00:02.000Z",
        message: callMsg("c1"),
      },
      {
        type: "compaction",
        id: "k1",
        parentId: "a1",
        timestamp: "2026-01-01T00:00:03.000Z",
        summary: "OLD",
        firstKeptEntryId: "a1",
        tokensBefore: 5,
      },
      {
        type: "message",
        id: "r1",
        parentId: "k1",
        timestamp: "2026-01-01T00:00:04.000Z",
        message: resultMsg("c1"),
      },
      {
        type: "message",
        id: "u2",
        parentId: "r1",
        timestamp: "2026-01-01T00:00:05.000Z",
        message: { role: "user", content: "next", timestamp: 5 },
      },
      {
        type: "compaction",
        id: "k2",
        parentId: "u2",
        timestamp: "2026-01-01T00:00:06.000Z",
        summary: "NEW",
        firstKeptEntryId: "a1",
        tokensBefore: 9,
      },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
    const { session } = await importSessionJsonl(scope, projectId, text);
    const ctx = await loadSessionContext(scope, session.id);
    expect(ctx.messages.map((m) => m.role)).toEqual(["compactionSummary", "assistant", "toolResult", "user"]);
    assertCallsPaired(ctx.messages);
    expect(await exportSessionJsonl(scope, session.id)).toBe(text);
  });
});
