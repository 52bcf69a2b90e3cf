/**
 * A workspace's `OPENAI_COMPATIBLE_BASE_URL` secret must not receive the server's `OPENAI_COMPATIBLE_API_KEY`. Every
 * user owns their personal workspace and so may set that secret; before the fix (lib/secrets/provider-env.ts) the
 * next prompt carried `Authorization: Bearer <the server's key>` to whatever host the user named.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putSecret } from "@/app/api/workspaces/[id]/secrets/[name]/route";
import { DbScope } from "@/lib/db/client";
import { createSession } from "@/lib/session/store";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import { makeProject } from "../../helpers/lifecycle-fixture";
import { promptEvents } from "../../helpers/prompt-stream";

const SERVER_KEY = "sk-server-gateway-key-H-7f3a";
// A workspace base URL must be https:// on an allowed host (STRATA_WORKSPACE_BASE_URL_HOSTS): requests to it are
// answered by a fetch stub that records them.
const captureUrl = "https://gw.example.test/v1";
const seen: { path: string; authorization: string | null }[] = [];
let restoreEnv: () => void;
let scope: DbScope;

beforeAll(async () => {
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== "gw.example.test") return realFetch(input, init);
    seen.push({ path: url.pathname, authorization: new Headers(init?.headers).get("authorization") });
    return Response.json({ error: { message: "captured", type: "invalid_request_error" } }, { status: 401 });
  });
  restoreEnv = setEnv({
    OPENAI_COMPATIBLE_API_KEY: SERVER_KEY,
    OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1",
    STRATA_MODELS: JSON.stringify([{ provider: "openai-compatible", id: "gw-model", name: "Gateway" }]),
    STRATA_DEFAULT_MODEL: "openai-compatible/gw-model",
    STRATA_WORKSPACE_BASE_URL_HOSTS: "gw.example.test",
  });
  scope = new DbScope();
});

afterAll(async () => {
  await scope.release();
  restoreEnv();
  vi.unstubAllGlobals();
});

async function setSecret(user: TestUser, name: string, value: string) {
  const res = await putSecret(
    asUser(user, `/api/workspaces/${user.workspaceId}/secrets/${name}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ value }),
    }),
    { params: Promise.resolve({ id: user.workspaceId, name }) },
  );
  expect(res.status).toBe(200);
}

async function promptOnce(user: TestUser): Promise<{ path: string; authorization: string | null }> {
  const project = await makeProject(scope, `base-url-${Math.random().toString(36).slice(2, 8)}`, {
    userId: user.id,
    workspaceId: user.workspaceId,
  });
  const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
  seen.length = 0;
  const events = await promptEvents(user, session.id, "hello");
  expect(events.some((e) => e.type === "error" || e.type === "agent_end")).toBe(true);
  expect(seen.length).toBeGreaterThan(0);
  return seen[0];
}

describe("a workspace base URL and the server's provider key", () => {
  it("a personal workspace's own base URL gets no key of the server", async () => {
    const user = await createTestUser("Base URL attacker");
    await setSecret(user, "OPENAI_COMPATIBLE_BASE_URL", captureUrl);
    const request = await promptOnce(user);
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.authorization ?? "").not.toContain(SERVER_KEY);
  });

  it("with the workspace's own key set too, that key is sent", async () => {
    const user = await createTestUser("Own gateway");
    await setSecret(user, "OPENAI_COMPATIBLE_BASE_URL", captureUrl);
    await setSecret(user, "OPENAI_COMPATIBLE_API_KEY", "sk-workspace-own-key-1");
    const request = await promptOnce(user);
    expect(request.authorization).toBe("Bearer sk-workspace-own-key-1");
  });
});
