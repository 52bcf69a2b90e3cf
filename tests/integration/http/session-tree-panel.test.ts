/**
 * What the session tree panel calls, against the real Postgres: the tree's node fields for pi's filters (tool-call
 * only assistant messages, a tool result's call), pi's fork positions (`before` a user message: the path before
 * it and its text; `at`: the entry kept), labels (pi's `appendLabelChange`: trimmed, empty clears, appended under
 * the leaf, which moves to it) and pi's `/tree` selection rules through `navigateTree` (7.18, 7.19, 7.21–7.23).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postImport } from "@/app/api/projects/[id]/sessions/import/route";
import { POST as postFork } from "@/app/api/sessions/[id]/fork/route";
import { POST as postLabel } from "@/app/api/sessions/[id]/labels/route";
import { GET as getTreeRoute } from "@/app/api/sessions/[id]/tree/route";
import { navigateTree } from "@/lib/agent-session/session-tree";
import { DbScope } from "@/lib/db/client";
import { resolveModel } from "@/lib/llm/models";
import { emptyUsage } from "@/lib/llm/types";
import { insertProject } from "@/lib/projects/projects";
import { loadAllEntries, loadBranch } from "@/lib/session/context-load";
import { finishRun, startRun } from "@/lib/session/runs";
import { appendEntry, createSession, getSession, getSessionHeader } from "@/lib/session/store";
import type { SessionTreeViewNode } from "@/lib/session/tree-view";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";

const fixture = readFileSync(new URL("../../fixtures/sessions/pi-tour.jsonl", import.meta.url), "utf8");
const MISSING = "00000000-0000-4000-8000-000000000000";

let user: TestUser;
let scope: DbScope;
let projectId: string;

beforeAll(async () => {
  scope = new DbScope();
  user = await createTestUser();
  projectId = (
    await insertProject(scope, { workspaceId: user.workspaceId, name: "tree-panel", source: null })
  ).id;
});
afterAll(async () => {
  await scope.release();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const json = (body: unknown) =>
  asUser(user, "http://x/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function importFixture(): Promise<string> {
  const form = new FormData();
  form.append("file", new File([fixture], "tour.jsonl", { type: "application/x-ndjson" }));
  const res = await postImport(asUser(user, "http://x/", { method: "POST", body: form }), params(projectId));
  expect(res.status).toBe(201);
  return ((await res.json()) as { session: { id: string } }).session.id;
}

/** A session whose root entry is a user message (then an answer). */
async function userRootSession(): Promise<string> {
  const s = await createSession(scope, { projectId, cwd: "/p" });
  await appendEntry(scope, s.id, {
    type: "message",
    message: { role: "user", content: "First words", timestamp: 1 },
  });
  await appendEntry(scope, s.id, {
    type: "custom_message",
    customType: "note",
    content: "An answer",
    display: true,
  } as Parameters<typeof appendEntry>[2]);
  return s.id;
}

async function tree(sessionId: string) {
  const res = await getTreeRoute(asUser(user, "http://x/"), params(sessionId));
  return (await res.json()) as { leafId: string; nodes: SessionTreeViewNode[] };
}

describe("tree nodes for pi's filters", () => {
  it("marks tool-call-only assistant messages and names a tool result's call as pi's tree shows it", async () => {
    const { nodes } = await tree(await importFixture());
    const byId = new Map(nodes.map((n) => [n.id, n]));
    expect(byId.get("a0000005")).toMatchObject({ role: "assistant", toolCallsOnly: true });
    expect(byId.get("a0000007")?.toolCallsOnly).toBeUndefined();
    expect(byId.get("a0000006")).toMatchObject({ role: "toolResult", tool: "[read: README.md]" });
    expect(byId.get("a0000007")).toMatchObject({
      label: "summary done",
      labelTimestamp: "2026-01-01T09:00:07.000Z",
    });
  });
});

describe("POST fork with pi's positions", () => {
  it("before a user message: the path before it, its text for the new session's editor", async () => {
    const id = await importFixture();
    const res = await postFork(json({ entryId: "a000000d", position: "before" }), params(id));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { session: { id: string }; editorText?: string };
    expect(body.editorText).toBe("Now list src");
    const stored = (await getSession(scope, body.session.id))!;
    const path = await loadBranch(scope, body.session.id, stored.leafId);
    // The label entry of the path is dropped from the chain and re-added at its end (7.23).
    expect(path.map((e) => e.type).slice(0, 11)).toEqual([
      "model_change",
      "thinking_level_change",
      "message",
      "message",
      "message",
      "message",
      "message",
      "session_info",
      "message",
      "custom",
      "custom_message",
    ]);
    expect(path.some((e) => e.id === "a000000d")).toBe(false);
    expect(path.at(-1)).toMatchObject({ type: "label", targetId: "a0000007", label: "summary done" });
    expect((await getSessionHeader(scope, body.session.id)).parentSession).toBe(id);
  });

  it("at (the default): the entry kept; no editor text", async () => {
    const id = await importFixture();
    const res = await postFork(json({ entryId: "a000000d", position: "at" }), params(id));
    const body = (await res.json()) as { session: { id: string }; editorText?: string };
    expect(body.editorText).toBeUndefined();
    const stored = (await getSession(scope, body.session.id))!;
    expect((await loadBranch(scope, body.session.id, stored.leafId)).some((e) => e.id === "a000000d")).toBe(
      true,
    );
  });

  it("before a root user message: an empty session that names its parent", async () => {
    const id = await userRootSession();
    const root = (await loadAllEntries(scope, id))[0];
    const res = await postFork(json({ entryId: root.id, position: "before" }), params(id));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { session: { id: string }; editorText?: string };
    expect(body.editorText).toBe("First words");
    expect((await tree(body.session.id)).nodes).toEqual([]);
    expect((await getSession(scope, body.session.id))!.leafId).toBeNull();
    expect((await getSessionHeader(scope, body.session.id)).parentSession).toBe(id);
  });

  it("before a non-user entry: 400 with pi's text; unknown entry 404", async () => {
    const id = await importFixture();
    let res = await postFork(json({ entryId: "a0000007", position: "before" }), params(id));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "invalid_fork_entry", message: "Invalid entry ID for forking" },
    });
    res = await postFork(json({ entryId: "zzzzzzzz", position: "before" }), params(id));
    expect(res.status).toBe(404);
    expect((await postFork(json({ entryId: "a0000007", position: "middle" }), params(id))).status).toBe(400);
  });
});

describe("POST labels (pi's label edit)", () => {
  it("sets a trimmed label under the leaf (which moves to it), clears with an empty one; refusals", async () => {
    const id = await importFixture();
    const before = (await getSession(scope, id))!.leafId;
    let res = await postLabel(json({ entryId: "a0000004", label: "  first ask " }), params(id));
    expect(res.status).toBe(200);
    const set = (await res.json()) as { entryId: string; label?: string; labelEntryId: string };
    expect(set).toMatchObject({ entryId: "a0000004", label: "first ask" });
    const entries = await loadAllEntries(scope, id);
    expect(entries.at(-1)).toMatchObject({
      id: set.labelEntryId,
      type: "label",
      parentId: before,
      targetId: "a0000004",
    });
    expect((await getSession(scope, id))!.leafId).toBe(set.labelEntryId);
    expect((await tree(id)).nodes.find((n) => n.id === "a0000004")?.label).toBe("first ask");

    res = await postLabel(json({ entryId: "a0000004", label: "   " }), params(id));
    expect(await res.json()).toEqual({ entryId: "a0000004", labelEntryId: expect.any(String) });
    expect((await tree(id)).nodes.find((n) => n.id === "a0000004")?.label).toBeUndefined();
    // Without `label`: cleared too (pi: undefined clears).
    res = await postLabel(json({ entryId: "a0000007" }), params(id));
    expect((await tree(id)).nodes.find((n) => n.id === "a0000007")?.label).toBeUndefined();

    res = await postLabel(json({ entryId: "zzzzzzzz", label: "x" }), params(id));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "Entry zzzzzzzz not found" } });
    expect((await postLabel(json({ entryId: "a0000004", label: "x", extra: 1 }), params(id))).status).toBe(
      400,
    );
    expect((await postLabel(json({ entryId: "a0000004", label: "x" }), params(MISSING))).status).toBe(404);

    const runId = await startRun(scope, id);
    res = await postLabel(json({ entryId: "a0000004", label: "x" }), params(id));
    expect(res.status).toBe(409);
    await finishRun(scope, runId);
  });
});

describe("navigateTree: pi's /tree selection rules", () => {
  const env = {};
  it("a user message → leaf = its parent, text back; a custom message the same; others → the entry; the leaf → no-op", async () => {
    const id = await importFixture();
    const nav = (targetId: string) => navigateTree({ scope, sessionId: id, targetId, env });
    expect(await nav("a000000c")).toEqual({ leafId: "a000000b", editorText: "injected note" });
    expect(await nav("a000000d")).toEqual({ leafId: "a000000c", editorText: "Now list src" });
    // The target is the leaf already: nothing happens (the user message's parent is the leaf now).
    expect(await nav("a000000c")).toEqual({ leafId: "a000000c" });
    expect(await nav("a0000010")).toEqual({ leafId: "a0000010" });
    expect(await nav("a0000010")).toEqual({ leafId: "a0000010" });
    // A branch summary and a settings entry are ordinary targets (7.19: only the leaf moves).
    expect(await nav("a0000013")).toEqual({ leafId: "a0000013" });
    expect(await nav("a0000002")).toEqual({ leafId: "a0000002" });
    expect((await getSession(scope, id))!.leafId).toBe("a0000002");
    expect(await loadAllEntries(scope, id)).toHaveLength(fixture.trim().split("\n").length - 1);
  });

  it("a root user message → leaf null (7.19 resetLeaf): the next entry is a new root", async () => {
    const id = await userRootSession();
    const root = (await loadAllEntries(scope, id))[0];
    expect(await navigateTree({ scope, sessionId: id, targetId: root.id, env })).toEqual({
      leafId: null,
      editorText: "First words",
    });
    expect((await getSession(scope, id))!.leafId).toBeNull();
    const next = await appendEntry(scope, id, {
      type: "message",
      message: { role: "user", content: "Second try", timestamp: 2 },
    });
    expect(next.parentId).toBeNull();
  });

  it("with a summary, a user message target: the summary goes under its parent and becomes the leaf (7.18)", async () => {
    const id = await importFixture();
    const model = resolveModel("anthropic/claude-sonnet-4-5", { ANTHROPIC_API_KEY: "test" })!;
    const prompts: string[] = [];
    const result = await navigateTree({
      scope,
      sessionId: id,
      targetId: "a000000d",
      summarize: true,
      env,
      model,
      summarizeFn: async (prompt) => {
        prompts.push(prompt);
        return {
          role: "assistant",
          content: [{ type: "text", text: "## Goal\nLeft branch." }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: model.id,
          usage: emptyUsage(),
          stopReason: "stop",
          timestamp: 1,
        };
      },
    });
    expect(result.editorText).toBe("Now list src");
    expect(result.summaryEntry).toMatchObject({
      type: "branch_summary",
      parentId: "a000000c",
      fromId: "a0000016",
    });
    expect(result.leafId).toBe(result.summaryEntry?.id);
    expect((await getSession(scope, id))!.leafId).toBe(result.summaryEntry?.id);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("What next?");
  });
});
