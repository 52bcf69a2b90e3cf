/**
 * The session tree route handlers against the real Postgres (and the mock provider for the summaries):
 * JSONL import/export, the tree, moving the leaf (with and without a branch summary), fork, compact,
 * and their errors.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postImport } from "@/app/api/projects/[id]/sessions/import/route";
import { POST as postBranch } from "@/app/api/sessions/[id]/branch/route";
import { POST as postCompact } from "@/app/api/sessions/[id]/compact/route";
import { GET as getExport } from "@/app/api/sessions/[id]/export/route";
import { POST as postFork } from "@/app/api/sessions/[id]/fork/route";
import { GET as getTreeRoute } from "@/app/api/sessions/[id]/tree/route";
import type { AgentMessage } from "@/lib/agent/messages";
import { emptyUsage } from "@/lib/llm/types";
import { insertProject } from "@/lib/projects/projects";
import { BRANCH_SUMMARY_PREAMBLE } from "@/lib/session/compaction/branch-summarization";
import { SUMMARIZATION_SYSTEM_PROMPT } from "@/lib/session/compaction/utils";
import { loadBranch } from "@/lib/session/context-load";
import { finishRun, startRun } from "@/lib/session/runs";
import { appendEntry, createSession, getSession, getSessionHeader } from "@/lib/session/store";
import type { SessionTreeViewNode } from "@/lib/session/tree-view";
import { asUser, signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const fixture = readFileSync(new URL("../../fixtures/sessions/pi-tour.jsonl", import.meta.url), "utf8");
const MISSING = "00000000-0000-4000-8000-000000000000";

const stack = withMockStack({ processEnv: true });
let projectId: string;

beforeAll(async () => {
  const actor = await signedIn.actor();
  projectId = (
    await insertProject(stack.scope, { workspaceId: actor.workspaceId, name: "tree-http", source: null })
  ).id;
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const json = (body: unknown) =>
  asUser(signedIn.user, "http://x/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
function multipart(text: string, name = "tour.jsonl") {
  const form = new FormData();
  form.append("file", new File([text], name, { type: "application/x-ndjson" }));
  return asUser(signedIn.user, "http://x/", { method: "POST", body: form });
}

async function importFixture(text = fixture) {
  const res = await postImport(multipart(text), params(projectId));
  expect(res.status).toBe(201);
  return (await res.json()) as {
    session: { id: string; projectId: string; title: string; model: string | null };
    diagnostics: { line: number; kind: string; message: string }[];
  };
}

describe("import / export", () => {
  it("multipart import, then export: byte-identical, pi's file name, application/x-ndjson", async () => {
    const { session, diagnostics } = await importFixture();
    expect(diagnostics).toEqual([]);
    expect(session).toMatchObject({ projectId, title: "README tour", model: "anthropic/claude-sonnet-4-5" });
    const res = await getExport(asUser(signedIn.user, "http://x/"), params(session.id));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get("content-disposition")).toContain(
      'attachment; filename="2026-01-01T09-00-00-000Z_0198a6f0-0000-7000-8000-000000000001.jsonl"',
    );
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new TextEncoder().encode(fixture));
  });

  it("raw-body import reports malformed lines with their line numbers; a torn last line refuses the file", async () => {
    const lines = fixture.split("\n").slice(0, 4);
    const raw = (text: string, type?: string) =>
      postImport(
        asUser(signedIn.user, "http://x/?name=torn.jsonl", {
          method: "POST",
          headers: type ? { "content-type": type } : {},
          body: text,
        }),
        params(projectId),
      );
    const skipped = await raw(`${lines[0]}\n${lines[1]}\nnot json\n${lines[2]}\n`, "application/x-ndjson");
    expect(skipped.status).toBe(201);
    const body = (await skipped.json()) as {
      session: { id: string };
      diagnostics: { line: number; kind: string }[];
    };
    expect(body.diagnostics.map((d) => [d.line, d.kind])).toEqual([[3, "invalid-json"]]);
    expect((await getSession(stack.scope, body.session.id))!.leafId).toBe("a0000002");

    const torn = await raw(`${lines[0]}\n${lines[1]}\n{"type":"mess`, "application/x-ndjson");
    expect(torn.status).toBe(400);
    expect(await torn.json()).toEqual({
      error: {
        code: "invalid_session_file",
        message:
          "Session file ends in an incomplete line (it was cut); nothing was imported: torn.jsonl\ntorn.jsonl:3: torn-last-line: Line 3 (last, no newline) is incomplete JSON",
      },
    });
    const untyped = await raw(`${lines[0]}\n`);
    expect(untyped.status).toBe(415);
    expect((await untyped.json()).error.code).toBe("unsupported_media_type");
  });

  it("a file without a pi header answers 400 with pi's text; unknown project and session 404", async () => {
    const res = await postImport(multipart('{"type":"message"}\n', "bad.jsonl"), params(projectId));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "invalid_session_file", message: "Session file is not a valid pi session: bad.jsonl" },
    });
    expect((await postImport(multipart(fixture), params(MISSING))).status).toBe(404);
    expect((await getExport(asUser(signedIn.user, "http://x/"), params(MISSING))).status).toBe(404);
    expect((await getExport(asUser(signedIn.user, "http://x/"), params("nope"))).status).toBe(404);
  });
});

describe("tree, branch, fork", () => {
  it("GET tree: every entry once, depth first, with role, preview, label and the leaf", async () => {
    const { session } = await importFixture();
    const res = await getTreeRoute(asUser(signedIn.user, "http://x/"), params(session.id));
    expect(res.status).toBe(200);
    const { leafId, nodes } = (await res.json()) as { leafId: string; nodes: SessionTreeViewNode[] };
    expect(leafId).toBe("a0000016");
    expect(nodes).toHaveLength(fixture.trim().split("\n").length - 1);
    expect(nodes[0]).toMatchObject({ id: "a0000001", parentId: null, type: "model_change", depth: 0 });
    expect(nodes.find((n) => n.id === "a0000004")).toMatchObject({
      type: "message",
      role: "user",
      preview: "Read README.md and summarise it",
    });
    expect(nodes.find((n) => n.id === "a0000007")).toMatchObject({
      role: "assistant",
      label: "summary done",
    });
    // The compaction has two children: the abandoned idea (older) first, then the branch summary.
    const compaction = nodes.findIndex((n) => n.id === "a0000010");
    expect(nodes[compaction].childCount).toBe(2);
    expect(nodes[compaction + 1]).toMatchObject({ id: "a0000011", depth: nodes[compaction].depth + 1 });
    expect(nodes.find((n) => n.id === "a0000013")?.depth).toBe(nodes[compaction].depth + 1);
  });

  it("POST branch moves the leaf; a user message target moves it to the parent and returns its text", async () => {
    const { session } = await importFixture();
    let res = await postBranch(json({ entryId: "a0000007" }), params(session.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ leafId: "a0000007" });
    expect((await getSession(stack.scope, session.id))!.leafId).toBe("a0000007");

    res = await postBranch(json({ entryId: "a0000004" }), params(session.id));
    expect(await res.json()).toEqual({ leafId: "a0000003", editorText: "Read README.md and summarise it" });
    expect((await getSession(stack.scope, session.id))!.leafId).toBe("a0000003");

    res = await postBranch(json({ entryId: "zzzzzzzz" }), params(session.id));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "Entry zzzzzzzz not found" } });
    expect((await postBranch(json({}), params(session.id))).status).toBe(400);
    expect((await postBranch(json({ entryId: "a0000007" }), params(MISSING))).status).toBe(404);
  });

  it("POST branch with summarize: the session's model summarizes the branch left behind", async () => {
    const { session } = await importFixture();
    stack.mock.enqueue({ text: "## Goal\nAsk what is next." });
    const res = await postBranch(json({ entryId: "a0000012", summarize: true }), params(session.id));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { leafId: string; summaryEntry: Record<string, unknown> };
    expect(body.summaryEntry).toMatchObject({
      type: "branch_summary",
      parentId: "a0000012",
      fromId: "a0000016",
      summary: `${BRANCH_SUMMARY_PREAMBLE}## Goal\nAsk what is next.`,
      details: { readFiles: [], modifiedFiles: [] },
    });
    expect(body.leafId).toBe(body.summaryEntry.id);
    const request = stack.mock.requests.find((r) => r.path === "/v1/messages")!;
    const sent = request.body as {
      model: string;
      system: { text: string }[];
      max_tokens: number;
      messages: { content: { text: string }[] }[];
    };
    expect(sent.model).toBe("claude-sonnet-4-5");
    expect(sent.system.map((b) => b.text).join("")).toBe(SUMMARIZATION_SYSTEM_PROMPT);
    expect(sent.max_tokens).toBe(4096);
    const prompt = sent.messages[0].content.map((b) => b.text).join("");
    expect(prompt.startsWith("<conversation>\n[User]: The following is a summary of a branch")).toBe(true);
    expect(prompt).toContain("\n\n[User]: What next? (é ü 日本");
    expect(prompt).toContain(")\n</conversation>\n\nCreate a structured summary of this conversation branch");
    const branch = await loadBranch(stack.scope, session.id, body.leafId);
    expect(branch.map((e) => e.id).slice(-2)).toEqual(["a0000012", body.leafId]);
  });

  it("POST fork: a new session with the root→entry path", async () => {
    const { session } = await importFixture();
    const res = await postFork(json({ entryId: "a0000007" }), params(session.id));
    expect(res.status).toBe(201);
    const { session: forked } = (await res.json()) as { session: { id: string; projectId: string } };
    expect(forked.projectId).toBe(projectId);
    const stored = (await getSession(stack.scope, forked.id))!;
    const branch = await loadBranch(stack.scope, forked.id, stored.leafId);
    expect(branch.slice(0, 7).map((e) => e.id)).toEqual([
      "a0000001",
      "a0000002",
      "a0000003",
      "a0000004",
      "a0000005",
      "a0000006",
      "a0000007",
    ]);
    expect((await getSessionHeader(stack.scope, forked.id)).parentSession).toBe(session.id);
    expect((await postFork(json({ entryId: "zzzzzzzz" }), params(session.id))).status).toBe(404);
  });
});

describe("POST compact", () => {
  const user = (text: string): AgentMessage => ({
    role: "user",
    content: [{ type: "text", text }],
    timestamp: 1,
  });
  const assistant = (text: string): AgentMessage =>
    ({
      role: "assistant",
      content: [{ type: "text", text }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: 2,
    }) as AgentMessage;

  it("compacts with the session's model; 409 while a run is live; nothing to do", async () => {
    const session = await createSession(stack.scope, { projectId, cwd: "/p" });
    const add = (message: AgentMessage) => appendEntry(stack.scope, session.id, { type: "message", message });
    let res = await postCompact(json({}), params(session.id));
    expect(await res.json()).toEqual({ status: "nothing" });

    await add(user(`Old work ${"o".repeat(90_000)}`));
    await add(assistant("Old answer."));
    await add(user(`Recent work ${"r".repeat(90_000)}`));
    await add(assistant("Recent answer."));

    const runId = await startRun(stack.scope, session.id);
    res = await postCompact(json({}), params(session.id));
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("run_active");
    await finishRun(stack.scope, runId);

    stack.mock.enqueue({ text: "Summary of old work." });
    res = await postCompact(json({ focus: "old work" }), params(session.id));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; entry: { type: string; summary: string } };
    expect(body).toMatchObject({
      status: "compacted",
      entry: { type: "compaction", summary: "Summary of old work." },
    });
    const prompt = (
      stack.mock.requests[0].body as { messages: { content: { text: string }[] }[] }
    ).messages[0].content
      .map((b) => b.text)
      .join("");
    expect(prompt.endsWith("\n\nAdditional focus: old work")).toBe(true);

    stack.mock.enqueue({
      error: { status: 400, message: "prompt is too long: 300000 tokens > 200000 maximum" },
    });
    await add(user(`Newer work ${"n".repeat(90_000)}`));
    await add(assistant("Newer answer."));
    res = await postCompact(json({}), params(session.id));
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "summarization_failed",
    });
    expect((await postCompact(json({}), params(MISSING))).status).toBe(404);
  });
});
