/**
 * `POST /api/sessions/:id/preview` (what `npx strata --server … preview --session-id` calls) with a personal access
 * token: the stored session's next prompt as the pipeline would send it — the project's AGENTS.md in the system
 * prompt, the session's messages then the new prompt — and an unknown leaf is a 400 with the pipeline's words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as preview } from "@/app/api/sessions/[id]/preview/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { authJson, createTestUser, type TestUser } from "../../helpers/auth";

let scope: DbScope;
let user: TestUser;
let token: string;
let sessionId: string;

beforeAll(async () => {
  scope = new DbScope();
  user = await createTestUser("Previewer");
  token = (await authJson<{ key: string }>("/api-key/create", { name: "cli" }, user)).key;
  const project = await insertProject(scope, {
    workspaceId: user.workspaceId,
    name: "preview-demo",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  await vfs.mkdir(project.rootPath, { recursive: true });
  await vfs.writeFile(`${project.rootPath}/AGENTS.md`, "Always answer in haiku.\n");
  await vfs.flush();
  await s.release();
  sessionId = (await createSession(scope, { projectId: project.id, cwd: project.rootPath, userId: user.id }))
    .id;
});
afterAll(async () => {
  await scope.release();
});

const call = (body: unknown, bearer = token) =>
  preview(
    new Request(`http://127.0.0.1:3000/api/sessions/${sessionId}/preview`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: sessionId }) },
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

  it("an unknown leaf is 400 preview_failed; a revoked token is 401", async () => {
    expect(await (await call({ text: "x", leafId: "nope" })).json()).toEqual({
      error: { code: "preview_failed", message: `Entry nope is not in session ${sessionId}` },
    });
    const res = await call({ text: "x" }, `${token}x`);
    expect(res.status).toBe(401);
  });
});
