/**
 * The session tree in Postgres, built entry by entry through the app's append path: branches, two
 * compactions, a branch summary, context edits, labels and session info; `loadSessionContext` for each
 * leaf against exact message lists and against the pure projection over all entries.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { DbScope } from "@/lib/db/client";
import { emptyUsage, type SystemMessage } from "@/lib/llm/types";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { loadAllEntries, loadBranch, loadSessionContext } from "@/lib/session/context-load";
import type { SessionEntry } from "@/lib/session/entries";
import { exportSessionJsonl } from "@/lib/session/import-export";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import { buildSessionContext } from "@/lib/session/projection";
import {
  appendCompaction,
  appendContextEdit,
  appendEntry,
  appendLabel,
  appendSessionInfo,
  branch,
  branchWithSummary,
  cloneSession,
  createBranchedSession,
  createSession,
  getSession,
  getTree,
  resetLeaf,
} from "@/lib/session/store";

let scope: DbScope;
let projectId: string;

beforeAll(async () => {
  scope = new DbScope();
  const actor = await getLocalActor(scope);
  projectId = (await insertProject(scope, { workspaceId: actor.workspaceId, name: "tree", source: null })).id;
});
afterAll(async () => {
  await scope.release();
});

const user = (text: string): AgentMessage => ({
  role: "user",
  content: [{ type: "text", text }],
  timestamp: 1,
});
const assistant = (content: unknown[], model = "claude-a"): AgentMessage =>
  ({
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model,
    usage: emptyUsage(),
    stopReason: content.some((b) => (b as { type: string }).type === "toolCall") ? "toolUse" : "stop",
    timestamp: 2,
  }) as AgentMessage;
const text = (t: string) => ({ type: "text" as const, text: t });
const call = (id: string, path = "a.ts") => ({ type: "toolCall", id, name: "read", arguments: { path } });
const result = (id: string, t: string): AgentMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [text(t)],
  isError: false,
  timestamp: 3,
});
const system = (sections: Record<string, string>): AgentMessage => ({
  role: "system",
  content: "",
  sections,
  timestamp: 0,
});

/** A compact rendering of a context: role + text, to compare exact lists. */
function render(messages: AgentMessage[]): string[] {
  return messages.map((m) => {
    switch (m.role) {
      case "system":
        return `system ${JSON.stringify(m.sections)}`;
      case "compactionSummary":
        return `compaction ${m.summary}`;
      case "branchSummary":
        return `branch ${m.summary}`;
      case "toolResult":
        return `toolResult ${m.toolCallId} ${JSON.stringify(m.content)}`;
      case "assistant":
        return `assistant ${m.content.map((b) => (b.type === "toolCall" ? `call:${b.id}` : b.type === "text" ? b.text : b.type)).join("|")}`;
      case "user":
        return `user ${typeof m.content === "string" ? `"${m.content}"` : m.content.map((b) => (b.type === "text" ? b.text : b.type)).join("|")}`;
      default:
        return m.role;
    }
  });
}

async function newSession() {
  return createSession(scope, { projectId, cwd: "/tree" });
}

describe("session tree in Postgres", () => {
  it("builds branches, two compactions, a branch summary and edits; every leaf's context is exact", async () => {
    const s = await newSession();
    const add = async (message: AgentMessage) =>
      (await appendEntry(scope, s.id, { type: "message", message })).id;
    await appendEntry(scope, s.id, { type: "model_change", provider: "anthropic", modelId: "claude-a" });
    await appendEntry(scope, s.id, { type: "thinking_level_change", thinkingLevel: "high" });
    await add(system({ p: "P1" }));
    const u1 = await add(user("hello"));
    const a1 = await add(assistant([text("hi")]));
    const label = await appendLabel(scope, s.id, u1, "start");
    expect(Object.keys(label)).toEqual(["type", "id", "parentId", "timestamp", "targetId", "label"]);
    const info = await appendSessionInfo(scope, s.id, "  Tree\r\ndemo ");
    expect(info).toMatchObject({ type: "session_info", name: "Tree demo" });
    expect((await getSession(scope, s.id))?.title).toBe("Tree demo");
    const u2 = await add(user("read a"));
    await add(assistant([call("c1")]));
    const r2 = await add(result("c1", "AAAA"));

    const k1 = await appendCompaction(scope, s.id, {
      summary: "S1",
      firstKeptEntryId: u2,
      tokensBefore: 100,
    });
    expect(k1.systemMessage).toEqual({
      role: "system",
      content: "",
      sections: { p: "P1" },
      timestamp: Date.parse(k1.timestamp),
    });
    expect(Object.keys(k1)).toEqual([
      "type",
      "id",
      "parentId",
      "timestamp",
      "summary",
      "firstKeptEntryId",
      "tokensBefore",
      "systemMessage",
    ]);

    await add(system({ p: "P2" }));
    const u3 = await add(user("edit a"));
    await add(assistant([text("done")]));
    const e1 = await appendContextEdit(scope, s.id, r2, { content: "[elided]" });
    expect(e1).toMatchObject({ targetId: r2, replacement: { content: [text("[elided]")] } });
    const e2 = await appendContextEdit(scope, s.id, u3, { content: "edit a please" });
    expect(e2).toMatchObject({ replacement: { content: "edit a please" } });

    const beforeK2 = render((await loadSessionContext(scope, s.id)).messages);
    expect(beforeK2).toEqual([
      'system {"p":"P1"}',
      "compaction S1",
      "user read a",
      "assistant call:c1",
      'toolResult c1 [{"type":"text","text":"[elided]"}]',
      'system {"p":"P2"}',
      'user "edit a please"',
      "assistant done",
    ]);

    const k2 = await appendCompaction(scope, s.id, {
      summary: "S2",
      firstKeptEntryId: u3,
      tokensBefore: 200,
    });
    expect(k2.systemMessage?.sections).toEqual({ p: "P2" });
    await add(user("after second"));
    const leafA = await add(assistant([text("ok")], "claude-b"));

    const ctxA = await loadSessionContext(scope, s.id);
    expect(render(ctxA.messages)).toEqual([
      'system {"p":"P2"}',
      "compaction S2",
      'user "edit a please"',
      "assistant done",
      "user after second",
      "assistant ok",
    ]);
    expect(ctxA.thinkingLevel).toBe("high");
    expect(ctxA.model).toEqual({ provider: "anthropic", modelId: "claude-b" });

    // Branch B: back to a1 with a summary of the abandoned path.
    const bs = await branchWithSummary(scope, s.id, a1, "Tried a lot.");
    expect(bs).toMatchObject({
      type: "branch_summary",
      parentId: a1,
      fromId: leafA,
      summary: "Tried a lot.",
    });
    await add(user("new direction"));
    const leafB = await add(assistant([text("sure")]));
    expect(render((await loadSessionContext(scope, s.id)).messages)).toEqual([
      'system {"p":"P1"}',
      "user hello",
      "assistant hi",
      "branch Tried a lot.",
      "user new direction",
      "assistant sure",
    ]);

    // Branch C: from u2, with an edit removing u1 — local to this branch.
    await branch(scope, s.id, u2);
    await add(user("alt"));
    await appendContextEdit(scope, s.id, u1, null);
    const leafC = (await getSession(scope, s.id))!.leafId!;
    expect(render((await loadSessionContext(scope, s.id)).messages)).toEqual([
      'system {"p":"P1"}',
      "assistant hi",
      "user read a",
      "user alt",
    ]);
    expect(render((await loadSessionContext(scope, s.id, leafB)).messages)).toContain("user hello");

    // Every entry as a leaf: the Postgres load equals the pure projection over all entries.
    const all = await loadAllEntries(scope, s.id);
    for (const e of all) {
      expect(await loadSessionContext(scope, s.id, e.id), e.id).toEqual(buildSessionContext(all, e.id));
    }
    expect(await loadSessionContext(scope, s.id, null)).toEqual({
      messages: [],
      thinkingLevel: "off",
      model: null,
    });

    // getTree: one root, children oldest first, labels resolved.
    const tree = await getTree(scope, s.id);
    expect(tree).toHaveLength(1);
    const find = (nodes: typeof tree, id: string): (typeof tree)[number] | undefined =>
      nodes.map((n) => (n.entry.id === id ? n : find(n.children, id))).find(Boolean);
    expect(find(tree, u1)?.label).toBe("start");
    expect(find(tree, a1)?.children.map((c) => c.entry.type)).toEqual(["label", "branch_summary"]);

    // createBranchedSession: only the root→leafC path, labels re-added at the end.
    const forked = await createBranchedSession(scope, s.id, leafC);
    // Titled as a fork in the session list; the source keeps its title.
    expect([forked.title, (await getSession(scope, s.id))?.title]).toEqual([
      "Fork of Tree demo",
      "Tree demo",
    ]);
    const forkedEntries = await loadAllEntries(scope, forked.id);
    const pathC = (await loadBranch(scope, s.id, leafC)).filter((e) => e.type !== "label");
    expect(forkedEntries.slice(0, -1).map((e) => e.id)).toEqual(pathC.map((e) => e.id));
    expect(forkedEntries[forkedEntries.length - 1]).toMatchObject({
      type: "label",
      targetId: u1,
      label: "start",
    });
    expect(forked.leafId).toBe(forkedEntries[forkedEntries.length - 1].id);
    expect(render((await loadSessionContext(scope, forked.id)).messages)).toEqual(
      render((await loadSessionContext(scope, s.id, leafC)).messages),
    );
    const forkedHeader = parseSessionJsonl(await exportSessionJsonl(scope, forked.id)).header;
    expect(forkedHeader).toMatchObject({
      type: "session",
      version: 3,
      id: forked.id,
      cwd: "/tree",
      parentSession: s.id,
    });

    // Clone: every entry copied unchanged, same leaf.
    const clone = await cloneSession(scope, s.id);
    expect(clone.leafId).toBe(leafC);
    const exported = (await exportSessionJsonl(scope, s.id)).split("\n").slice(1);
    expect((await exportSessionJsonl(scope, clone.id)).split("\n").slice(1)).toEqual(exported);
  });

  it("7.16 appendContextEdit validation errors", async () => {
    const s = await newSession();
    const mc = await appendEntry(scope, s.id, {
      type: "model_change",
      provider: "anthropic",
      modelId: "claude-a",
    });
    const u1 = await appendEntry(scope, s.id, { type: "message", message: user("a") });
    const sys = await appendEntry(scope, s.id, { type: "message", message: system({ a: "A" }) });
    const a1 = await appendEntry(scope, s.id, { type: "message", message: assistant([text("b")]) });
    await expect(appendContextEdit(scope, s.id, u1.id, { content: 5 })).rejects.toThrow(
      "Context edit replacement must be null or contain string/array content",
    );
    await expect(appendContextEdit(scope, s.id, u1.id, {} as { content: unknown })).rejects.toThrow(
      "Context edit replacement must be null or contain string/array content",
    );
    await expect(appendContextEdit(scope, s.id, "nope", null)).rejects.toThrow("Entry nope not found");
    await expect(appendContextEdit(scope, s.id, mc.id, null)).rejects.toThrow(
      `Entry ${mc.id} does not contribute editable model content`,
    );
    await expect(appendContextEdit(scope, s.id, sys.id, null)).rejects.toThrow(
      `Entry ${sys.id} does not contribute editable model content`,
    );
    await branch(scope, s.id, u1.id);
    await appendEntry(scope, s.id, { type: "message", message: user("side") });
    await expect(appendContextEdit(scope, s.id, a1.id, null)).rejects.toThrow(
      `Entry ${a1.id} is not on the active branch`,
    );
    const edit = await appendContextEdit(scope, s.id, u1.id, { content: "x" });
    expect(Object.keys(edit)).toEqual(["type", "id", "parentId", "timestamp", "targetId", "replacement"]);
  });

  it('7.18 branchWithSummary from a null leaf records fromId "root"; 7.19 branch/resetLeaf', async () => {
    const s = await newSession();
    await expect(branch(scope, s.id, "zz")).rejects.toThrow("Entry zz not found");
    await expect(branchWithSummary(scope, s.id, "zz", "S")).rejects.toThrow("Entry zz not found");
    const bs = await branchWithSummary(scope, s.id, null, "S");
    expect(bs).toMatchObject({ parentId: null, fromId: "root" });
    expect(Object.keys(bs)).toEqual(["type", "id", "parentId", "timestamp", "fromId", "summary"]);
    await resetLeaf(scope, s.id);
    expect((await getSession(scope, s.id))?.leafId).toBeNull();
    const root2 = await appendEntry(scope, s.id, { type: "message", message: user("new root") });
    expect(root2.parentId).toBeNull();
    expect((await getTree(scope, s.id)).map((n) => n.entry.id)).toEqual([bs.id, root2.id]);
    await expect(appendLabel(scope, s.id, "zz", "x")).rejects.toThrow("Entry zz not found");
  });

  it("7.20 appendCompaction with null firstKeptEntryId keeps nothing; no system message → none stored", async () => {
    const s = await newSession();
    await appendEntry(scope, s.id, { type: "message", message: user("a") });
    const k = await appendCompaction(scope, s.id, {
      summary: "S",
      firstKeptEntryId: null,
      tokensBefore: 1,
      details: { readFiles: [], modifiedFiles: [] },
    });
    expect(k.firstKeptEntryId).toBe(k.id);
    expect("systemMessage" in k).toBe(false);
    await appendEntry(scope, s.id, { type: "message", message: user("b") });
    expect(render((await loadSessionContext(scope, s.id)).messages)).toEqual(["compaction S", "user b"]);
    const stored = (await loadAllEntries(scope, s.id)).find((e) => e.id === k.id) as SessionEntry & {
      systemMessage?: SystemMessage;
    };
    expect(Object.keys(stored)).toEqual([
      "type",
      "id",
      "parentId",
      "timestamp",
      "summary",
      "firstKeptEntryId",
      "tokensBefore",
      "details",
    ]);
  });

  it("appendEntry keeps pi's key order for custom and custom_message entries", async () => {
    const s = await newSession();
    const c = await appendEntry(scope, s.id, { type: "custom", customType: "state", data: { n: 1 } });
    const cm = await appendEntry(scope, s.id, {
      type: "custom_message",
      customType: "ext",
      content: "note",
      display: false,
    });
    expect(Object.keys(c)).toEqual(["type", "customType", "data", "id", "parentId", "timestamp"]);
    expect(Object.keys(cm)).toEqual([
      "type",
      "customType",
      "content",
      "display",
      "id",
      "parentId",
      "timestamp",
    ]);
    const exported = (await exportSessionJsonl(scope, s.id)).split("\n");
    expect(exported[1]).toBe(JSON.stringify(c));
    expect(exported[2]).toBe(JSON.stringify(cm));
  });
});
