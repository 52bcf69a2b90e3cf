/**
 * Switching a session's model over HTTP against the real Postgres: PUT /api/sessions/:id/model stores pi's
 * `model_change` entry at once (an empty session also gets its `thinking_level_change`), and the session list and
 * GET /api/sessions/:id report the session's current model (the leaf's last model_change / assistant message).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/api/projects/[id]/sessions/route";
import { PUT as putModel } from "@/app/api/sessions/[id]/model/route";
import { GET as getRoute } from "@/app/api/sessions/[id]/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { loadBranch } from "@/lib/session/context-load";
import { finishRun, startRun } from "@/lib/session/runs";
import { appendEntry, createSession, getSession } from "@/lib/session/store";
import { asUser, signedInUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

let scope: DbScope;
let projectId: string;
let restoreEnv: () => void;

beforeAll(async () => {
  scope = new DbScope();
  restoreEnv = setEnv({
    ANTHROPIC_API_KEY: "k",
    OPENAI_API_KEY: "k",
    STRATA_DEFAULT_MODEL: "anthropic/claude-sonnet-4-5",
  });
  const actor = await signedIn.actor();
  projectId = (
    await insertProject(scope, { workspaceId: actor.workspaceId, name: "model-http", source: null })
  ).id;
});
afterAll(async () => {
  restoreEnv();
  await scope.release();
});

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const put = (body: unknown) =>
  asUser(signedIn.user, "http://x/", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const stripped = (entries: { type: string }[]) =>
  entries.map(({ id: _i, parentId: _p, timestamp: _t, ...rest }: Record<string, unknown>) => rest);

describe("PUT /api/sessions/:id/model", () => {
  it("an empty session: model_change then thinking_level_change 'off', reported by list and GET", async () => {
    const session = await createSession(scope, { projectId, cwd: "/" });
    const res = await putModel(put({ model: "openai/gpt-5" }), params(session.id));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ model: "openai/gpt-5" });
    const after = await getSession(scope, session.id);
    expect(stripped(await loadBranch(scope, session.id, after?.leafId ?? null))).toEqual([
      { type: "model_change", provider: "openai", modelId: "gpt-5" },
      { type: "thinking_level_change", thinkingLevel: "off" },
    ]);
    const list = (await (await listRoute(asUser(signedIn.user, "http://x/"), params(projectId))).json()) as {
      sessions: { id: string; model: string | null }[];
    };
    expect(list.sessions.find((s) => s.id === session.id)?.model).toBe("openai/gpt-5");
    const one = (await (await getRoute(asUser(signedIn.user, "http://x/"), params(session.id))).json()) as {
      session: { model: string | null };
    };
    expect(one.session.model).toBe("openai/gpt-5");
  });

  it("a session with entries gets one model_change per switch (pi appends on every setModel)", async () => {
    const session = await createSession(scope, { projectId, cwd: "/" });
    await appendEntry(scope, session.id, {
      type: "model_change",
      provider: "anthropic",
      modelId: "claude-sonnet-4-5",
    });
    await appendEntry(scope, session.id, { type: "thinking_level_change", thinkingLevel: "off" });
    expect((await putModel(put({ model: "openai/gpt-5" }), params(session.id))).status).toBe(200);
    expect((await putModel(put({ model: "anthropic/claude-sonnet-4-5" }), params(session.id))).status).toBe(
      200,
    );
    const after = await getSession(scope, session.id);
    expect(stripped(await loadBranch(scope, session.id, after?.leafId ?? null))).toEqual([
      { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" },
      { type: "thinking_level_change", thinkingLevel: "off" },
      { type: "model_change", provider: "openai", modelId: "gpt-5" },
      { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" },
    ]);
    const list = (await (await listRoute(asUser(signedIn.user, "http://x/"), params(projectId))).json()) as {
      sessions: { id: string; model: string | null }[];
    };
    expect(list.sessions.find((s) => s.id === session.id)?.model).toBe("anthropic/claude-sonnet-4-5");
  });

  it("refuses a model without a key (400), while a run holds the session (409) and an unknown session (404)", async () => {
    const session = await createSession(scope, { projectId, cwd: "/" });
    const unavailable = await putModel(put({ model: "mistral/mistral-large-latest" }), params(session.id));
    expect(unavailable.status).toBe(400);
    expect(await unavailable.json()).toEqual({
      error: { code: "model_unavailable", message: "Model mistral/mistral-large-latest is not available." },
    });
    const run = await startRun(scope, session.id, "prompt");
    const busy = await putModel(put({ model: "openai/gpt-5" }), params(session.id));
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({
      error: {
        code: "run_active",
        message:
          "The model cannot be switched while an agent run is in progress in this session. Wait for it to end, then choose the model again.",
      },
    });
    await finishRun(scope, run);
    expect((await getSession(scope, session.id))?.leafId).toBeNull();
    const shell = await startRun(scope, session.id, "bash");
    const busyShell = await putModel(put({ model: "openai/gpt-5" }), params(session.id));
    expect({ status: busyShell.status, body: await busyShell.json() }).toEqual({
      status: 409,
      body: {
        error: {
          code: "session_busy",
          message:
            "The model cannot be switched while a shell command is in progress in this session. Wait for it to end, then choose the model again.",
        },
      },
    });
    await finishRun(scope, shell);
    expect((await getSession(scope, session.id))?.leafId).toBeNull();
    const missing = await putModel(
      put({ model: "openai/gpt-5" }),
      params("00000000-0000-4000-8000-000000000000"),
    );
    expect(missing.status).toBe(404);
  });
});
