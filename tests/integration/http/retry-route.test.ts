/**
 * `POST /api/sessions/:id/retry` and pi's auto-retry through the real route handlers, Postgres and the mock
 * provider: the Retry button's run continues from before the failed answer (no second user message), the abort
 * route cancels a pending auto-retry wait (no further request), and a session held by another run answers 409.
 */
import { describe, expect, it } from "vitest";
import { POST as postAbort } from "@/app/api/sessions/[id]/abort/route";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { POST as postRetry } from "@/app/api/sessions/[id]/retry/route";
import { readSseStream } from "@/components/chat/sse";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { setSessionTrustOverride } from "@/lib/projects/session-resources";
import { finishRun, startRun } from "@/lib/session/runs";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const stack = withMockStack({ processEnv: true });

/** A session in a trusted project whose `.pi/settings.json` sets `retry`. */
async function newSession(retry: Record<string, unknown>) {
  const actor = await signedIn.actor();
  const project = await insertProject(stack.scope, {
    workspaceId: actor.workspaceId,
    name: "retry",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  await vfs.writeFile(`${project.rootPath}/.pi/settings.json`, JSON.stringify({ retry }));
  await vfs.flush();
  await s.release();
  const session = await createSession(stack.scope, { projectId: project.id, cwd: project.rootPath });
  await setSessionTrustOverride(stack.scope, session.id, true);
  return session;
}

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (handler: typeof postPrompt, id: string, path: string, body: unknown) =>
  handler(
    asUser(signedIn.user, `http://t/api/sessions/${id}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    ctx(id),
  );

async function readAll(res: Response, onEvent: (type: string) => void = () => {}) {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  await readSseStream(res.body as ReadableStream<Uint8Array>, (e) => {
    events.push({ type: e.event, data: JSON.parse(e.data) });
    onEvent(e.event);
  });
  return events;
}
const requests = () => stack.mock.requests.filter((r) => r.path === "/v1/messages");
const roleOf = (e: { data: Record<string, unknown> }) => (e.data.message as { role: string }).role;

describe("POST /api/sessions/:id/retry", () => {
  it("re-runs a failed turn without a second user message", async () => {
    const session = await newSession({ baseDelayMs: 100 });
    stack.mock.enqueue({ error: { status: 401, message: "invalid x-api-key" } }, { text: "Again." });
    const first = await readAll(await post(postPrompt, session.id, "prompt", { text: "hi" }));
    expect(first.filter((e) => e.type === "message_end").map(roleOf)).toEqual([
      "system",
      "user",
      "assistant",
    ]);

    const res = await post(postRetry, session.id, "retry", {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = await readAll(res);
    expect(events.filter((e) => e.type === "message_end").map(roleOf)).toEqual(["assistant"]);
    const answer = events.find((e) => e.type === "message_end")!.data.message as {
      content: { text: string }[];
    };
    expect(answer.content.map((c) => c.text).join("")).toBe("Again.");
    expect(requests()).toHaveLength(2);
    expect((requests()[1].body as { messages: unknown[] }).messages).toEqual(
      (requests()[0].body as { messages: unknown[] }).messages,
    );
  });

  it("answers 400 model_unavailable for an unknown model although models are configured", async () => {
    const session = await newSession({ baseDelayMs: 100 });
    stack.mock.enqueue({ error: { status: 401, message: "invalid x-api-key" } }, { text: "never asked for" });
    await readAll(await post(postPrompt, session.id, "prompt", { text: "hi" }));
    const res = await post(postRetry, session.id, "retry", { model: "nope/none" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "model_unavailable", message: "Model nope/none is not available." },
    });
    expect(requests()).toHaveLength(1);
    // The run was never started: the Retry button works right after.
    const again = await readAll(await post(postRetry, session.id, "retry", {}));
    expect(again.filter((e) => e.type === "message_end").map(roleOf)).toEqual(["assistant"]);
    expect(requests()).toHaveLength(2);
  });

  it("the prompt route names an unknown model without the setup help when models are configured", async () => {
    const session = await newSession({ baseDelayMs: 100 });
    const events = await readAll(
      await post(postPrompt, session.id, "prompt", { text: "hi", model: "nope/none" }),
    );
    expect(events.filter((e) => e.type === "error").map((e) => e.data)).toEqual([
      { type: "error", message: "Model nope/none is not available." },
    ]);
    expect(requests()).toHaveLength(0);
  });

  it("answers 409 run_active while another run holds the session", async () => {
    const session = await newSession({ baseDelayMs: 100 });
    const runId = await startRun(stack.scope, session.id);
    const res = await post(postRetry, session.id, "retry", {});
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("run_active");
    await finishRun(stack.scope, runId);
    expect(requests()).toHaveLength(0);
  });
});

describe("the abort route during an auto-retry wait", () => {
  it("cancels the wait: pi's auto_retry_end, no further request", async () => {
    const session = await newSession({ baseDelayMs: 20_000 });
    stack.mock.enqueue({ error: { status: 529, message: "Overloaded" } }, { text: "never asked for" });
    // Had the abort not cancelled the 20 s wait, the retry would follow it: a second request and a success.
    const res = await post(postPrompt, session.id, "prompt", { text: "hi" });
    let aborted: Promise<unknown> | undefined;
    const events = await readAll(res, (type) => {
      if (type === "auto_retry_start")
        aborted = postAbort(
          asUser(signedIn.user, `http://t/api/sessions/${session.id}/abort`, { method: "POST" }),
          ctx(session.id),
        );
    });
    expect((await (aborted as Promise<Response>)).status).toBe(200);
    expect(events.filter((e) => e.type.startsWith("auto_retry")).map((e) => e.data)).toEqual([
      {
        type: "auto_retry_start",
        attempt: 1,
        maxAttempts: 3,
        delayMs: 20_000,
        errorMessage: "529 Overloaded",
      },
      { type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" },
    ]);
    expect(requests()).toHaveLength(1);
    expect(stack.mock.pending).toBe(1);
  });
});
