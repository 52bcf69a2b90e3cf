/**
 * `POST /api/sessions/:id/preview` (what `npx strata --server … preview --session-id` calls) with a personal access
 * token: the stored session's next prompt as the pipeline would send it — the project's AGENTS.md in the system
 * prompt, the session's messages then the new prompt — and an unknown leaf is a 400 with the pipeline's words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as preview } from "@/app/api/sessions/[id]/preview/route";
import { DbScope } from "@/lib/db/client";
import { AGENT_DIR, openAgentVfs } from "@/lib/projects/agent-dir";
import { insertProject } from "@/lib/projects/projects";
import { appendEntry, createSession } from "@/lib/session/store";
import { bashToolDescription } from "@/lib/tools/bash";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { authJson, createTestUser, type TestUser } from "../../helpers/auth";

let scope: DbScope;
let user: TestUser;
let token: string;
let sessionId: string;
let imageSessionId: string;
let rootPath: string;
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

beforeAll(async () => {
  scope = new DbScope();
  user = await createTestUser("Previewer");
  token = (await authJson<{ key: string }>("/api-key/create", { name: "cli" }, user)).key;
  const project = await insertProject(scope, {
    workspaceId: user.workspaceId,
    name: "preview-demo",
    source: null,
  });
  rootPath = project.rootPath;
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  await vfs.mkdir(project.rootPath, { recursive: true });
  await vfs.writeFile(`${project.rootPath}/AGENTS.md`, "Always answer in haiku.\n");
  await vfs.flush();
  await s.release();
  sessionId = (await createSession(scope, { projectId: project.id, cwd: project.rootPath, userId: user.id }))
    .id;
  // A second session whose history holds an image and a priced Anthropic answer.
  imageSessionId = (
    await createSession(scope, { projectId: project.id, cwd: project.rootPath, userId: user.id })
  ).id;
  await appendEntry(scope, imageSessionId, {
    type: "message",
    message: {
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
      timestamp: 1,
    },
  });
  await appendEntry(scope, imageSessionId, {
    type: "message",
    message: {
      role: "assistant",
      content: [{ type: "text", text: "a pixel" }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: {
        input: 40,
        output: 8,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 48,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.375 },
      },
      stopReason: "stop",
      timestamp: 2,
    },
  });
});
afterAll(async () => {
  await scope.release();
});

const call = (body: unknown, bearer = token, id = sessionId) =>
  preview(
    new Request(`http://127.0.0.1:3000/api/sessions/${id}/preview`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );

describe("POST /api/sessions/:id/preview", () => {
  it("previews the stored session's next prompt as the token's user", async () => {
    const res = await call({ text: "hello", model: "anthropic/claude-sonnet-4-5" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      model: { provider: string; id: string };
      systemPrompt: string;
      agentMessages: { role: string; content: unknown }[];
      payload: { url: string; body: { messages: unknown[] } };
    };
    expect(body.model).toMatchObject({ provider: "anthropic", id: "claude-sonnet-4-5" });
    expect(body.systemPrompt).toContain("Always answer in haiku.");
    expect(body.agentMessages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(body.payload.url).toBe("https://api.anthropic.com/v1/messages");
    expect(JSON.stringify(body)).not.toContain(token);
  });

  it("answers the inspector's layers; the user's images.blockImages applies to the stored session", async () => {
    type Layers = {
      entries: { type: string; role?: string; producesMessageIndexes: number[]; summary: string }[];
      contextHookChanges: unknown;
      blockImages: boolean;
      llmMessages: { role: string; content: unknown }[];
      transformReport: { changes: { kind: string }[]; origins: (number | null)[] };
      toolDeclarations: { name: string }[];
      tokenEstimate: { contextWindow: number };
      recentCost: { turns: { costUsd: number; model: string }[]; totalUsd: number };
      sectionSources: { section: string; path?: string }[];
      payload: unknown;
    };
    const first = (await (
      await call({ text: "hi", model: "openai/gpt-5" }, token, imageSessionId)
    ).json()) as Layers;
    expect(first.entries.map((e) => [e.role, e.summary, e.producesMessageIndexes])).toEqual([
      ["user", "user: see [1 image]", [0]],
      ["assistant", "assistant anthropic/claude-sonnet-4-5 (stop): a pixel", [1]],
    ]);
    expect(first.contextHookChanges).toEqual({ added: 0, removed: 0, edited: 0, details: [], hooks: [] });
    expect(first.blockImages).toBe(false);
    expect(first.toolDeclarations.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(first.tokenEstimate.contextWindow).toBe(400000);
    expect(first.recentCost).toEqual({
      turns: [
        {
          entryId: expect.any(String),
          model: "anthropic/claude-sonnet-4-5",
          input: 40,
          output: 8,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: 0.375,
        },
      ],
      totalUsd: 0.375,
    });
    expect(first.sectionSources.filter((s) => s.path)).toEqual([
      {
        section: "project_context",
        path: `${rootPath}/AGENTS.md`,
        filesystem: "project",
        trustGated: false,
        // Nothing in the project needs trust: loaded as trusted (pi 2.9).
        trusted: true,
      },
    ]);

    const s = new DbScope();
    const { vfs } = await openAgentVfs(s, user.id);
    await vfs.mkdir(AGENT_DIR, { recursive: true });
    await vfs.writeFile(`${AGENT_DIR}/settings.json`, '{"images":{"blockImages":true}}');
    await vfs.flush();
    await s.release();
    const blocked = (await (
      await call({ text: "hi", model: "openai/gpt-5" }, token, imageSessionId)
    ).json()) as Layers;
    expect(blocked.blockImages).toBe(true);
    expect(blocked.llmMessages[0]).toMatchObject({
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "text", text: "Image reading is disabled." },
      ],
    });
    expect(JSON.stringify([blocked.llmMessages, blocked.payload])).not.toContain(PNG);
  });

  it("declares bash as a run does: with the execution service, its description names the runtimes", async () => {
    // tests/global-setup.ts starts the execution service, so a run's bash tool has node, python3 and sqlite3.
    expect(process.env.STRATA_EXEC_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const body = (await (await call({ text: "hi", model: "openai/gpt-5" })).json()) as {
      toolDeclarations: { name: string; description: string }[];
    };
    const bash = body.toolDeclarations.find((t) => t.name === "bash");
    expect(bash?.description).toBe(bashToolDescription({ runtimes: true, sandbox: false }));
    expect(bash?.description).not.toBe(bashToolDescription({ runtimes: false, sandbox: false }));
  });

  it("an unknown leaf is 400 preview_failed; a revoked token is 401", async () => {
    expect(await (await call({ text: "x", leafId: "nope" })).json()).toEqual({
      error: { code: "preview_failed", message: `Entry nope is not in session ${sessionId}` },
    });
    const res = await call({ text: "x" }, `${token}x`);
    expect(res.status).toBe(401);
  });
});
