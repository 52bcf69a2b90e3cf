/**
 * `queuePrompt` against the real Postgres: plain text is queued as the user typed it without loading the
 * session's resources, and text starting with `/` still goes through pi's `/template` expansion (so the
 * shortcut for plain text changes nothing a user sees).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queuePrompt } from "@/lib/agent-session/session-queue";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { setSessionTrustOverride } from "@/lib/projects/session-resources";
import { finishRun, startRun } from "@/lib/session/runs";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

async function liveSession() {
  const actor = await getLocalActor(scope);
  const project = await insertProject(scope, {
    workspaceId: actor.workspaceId,
    name: "queue-tpl",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  await vfs.writeFile(`${project.rootPath}/.pi/prompts/review.md`, "Review $1 carefully.\n");
  await vfs.flush();
  await s.release();
  const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
  await setSessionTrustOverride(scope, session.id, true);
  const runId = await startRun(scope, session.id, "prompt");
  return { session, runId };
}

describe("queuePrompt", () => {
  it("queues plain text unchanged and expands a /template", async () => {
    const { session, runId } = await liveSession();
    const plain = await queuePrompt(scope, { sessionId: session.id, kind: "followUp", text: "just text" });
    const template = await queuePrompt(scope, { sessionId: session.id, kind: "steer", text: "/review a.ts" });
    expect(plain.status).toBe("queued");
    expect(template.status).toBe("queued");
    if (plain.status !== "queued" || template.status !== "queued") return;
    expect(plain.queued.kind).toBe("followUp");
    expect(plain.queued.inputText).toBe("just text");
    expect(plain.queued.message).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "just text" }],
    });
    expect(template.queued.inputText).toBe("/review a.ts");
    expect(template.queued.message).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "Review a.ts carefully.\n" }],
    });
    await finishRun(scope, runId);
  });
});
