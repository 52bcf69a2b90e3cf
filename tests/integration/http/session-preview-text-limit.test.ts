/**
 * `POST /api/sessions/:id/preview` takes every prompt text `POST /api/sessions/:id/prompt` takes (up to 200,000
 * characters): a long prompt can be inspected before it is sent. A longer text is refused with the prompt route's
 * limit, in the body-schema's words.
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
  user = await createTestUser("Long prompter");
  token = (await authJson<{ key: string }>("/api-key/create", { name: "cli" }, user)).key;
  const project = await insertProject(scope, {
    workspaceId: user.workspaceId,
    name: "long-text",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(user.workspaceId, s);
  await vfs.mkdir(project.rootPath, { recursive: true });
  await vfs.flush();
  await s.release();
  sessionId = (await createSession(scope, { projectId: project.id, cwd: project.rootPath, userId: user.id }))
    .id;
});
afterAll(async () => {
  await scope.release();
});

const call = (body: unknown) =>
  preview(
    new Request(`http://127.0.0.1:3000/api/sessions/${sessionId}/preview`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );

describe("POST /api/sessions/:id/preview: the prompt's text limit", () => {
  it("previews a 200,000-character prompt (over 64 KiB of JSON)", async () => {
    const text = "é".repeat(200_000);
    const res = await call({ text, model: "anthropic/claude-sonnet-4-5" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { expandedText: string };
    expect(body.expandedText).toBe(text);
  });

  it("refuses 200,001 characters as the prompt route does", async () => {
    const res = await call({ text: "y".repeat(200_001), model: "anthropic/claude-sonnet-4-5" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "bad_request", message: "text: Too big: expected string to have <=200000 characters" },
    });
  });
});
