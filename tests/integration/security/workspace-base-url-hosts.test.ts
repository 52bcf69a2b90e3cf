/**
 * SSRF through a workspace secret: every user owns their personal workspace, so anyone could set
 * `OPENAI_COMPATIBLE_BASE_URL` to an internal address; the server then POSTed the next prompt there and showed the
 * answer's body in the chat. Now a workspace base URL must be https:// on a host listed in
 * `STRATA_WORKSPACE_BASE_URL_HOSTS` (lib/secrets/base-url.ts): refused when set (400), and a stored one whose host is no
 * longer listed is not called on use — the chat says why, and the server's own base URL is not called instead.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putSecret } from "@/app/api/workspaces/[id]/secrets/[name]/route";
import { DbScope } from "@/lib/db/client";
import { overlaySecrets, REFUSED_BASE_URL } from "@/lib/secrets/provider-env";
import { createSession } from "@/lib/session/store";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { setEnv } from "../../helpers/env";
import { makeProject } from "../../helpers/lifecycle-fixture";
import { promptEvents } from "../../helpers/prompt-stream";

const NAME = "OPENAI_COMPATIBLE_BASE_URL";
const REFUSED_TEXT =
  "This workspace's OPENAI_COMPATIBLE_BASE_URL is not used: its host is not in the server's STRATA_WORKSPACE_BASE_URL_HOSTS. Ask the server's operator to add the host to STRATA_WORKSPACE_BASE_URL_HOSTS, or have a workspace owner or admin delete or change OPENAI_COMPATIBLE_BASE_URL in Workspace settings.";
const hostRefusal = (host: string) =>
  `This server does not let workspaces send model requests to ${host}. To use it, ask the server's operator to add ${host} to STRATA_WORKSPACE_BASE_URL_HOSTS.`;

const requested: string[] = [];
let restoreEnv: () => void;
let scope: DbScope;
let user: TestUser;

beforeAll(async () => {
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!url.hostname.endsWith(".example.test")) return realFetch(input, init);
    requested.push(url.href);
    return Response.json(
      { error: { message: "internal body", type: "invalid_request_error" } },
      { status: 400 },
    );
  });
  restoreEnv = setEnv({
    OPENAI_COMPATIBLE_BASE_URL: "https://server-gw.example.test/v1",
    STRATA_MODELS: JSON.stringify([{ provider: "openai-compatible", id: "gw-model", name: "Gateway" }]),
    STRATA_DEFAULT_MODEL: "openai-compatible/gw-model",
  });
  delete process.env.STRATA_WORKSPACE_BASE_URL_HOSTS;
  scope = new DbScope();
  user = await createTestUser("SSRF tester");
});

afterAll(async () => {
  await scope.release();
  restoreEnv();
  delete process.env.STRATA_WORKSPACE_BASE_URL_HOSTS;
  vi.unstubAllGlobals();
});

async function put(value: string): Promise<{ status: number; body: unknown }> {
  const res = await putSecret(
    asUser(user, `/api/workspaces/${user.workspaceId}/secrets/${NAME}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ value }),
    }),
    { params: Promise.resolve({ id: user.workspaceId, name: NAME }) },
  );
  return { status: res.status, body: await res.json() };
}

const invalid = (message: string) => ({ error: { code: "invalid_secret_value", message } });

describe("setting a workspace base URL", () => {
  it("refuses every host while STRATA_WORKSPACE_BASE_URL_HOSTS is unset", async () => {
    expect(await put("https://169.254.169.254/latest")).toEqual({
      status: 400,
      body: invalid(hostRefusal("169.254.169.254")),
    });
  });

  it("refuses http:// even for an allowed host", async () => {
    process.env.STRATA_WORKSPACE_BASE_URL_HOSTS = "gw.example.test";
    expect(await put("http://gw.example.test/v1")).toEqual({
      status: 400,
      body: invalid("OPENAI_COMPATIBLE_BASE_URL must be an https:// URL, e.g. https://api.example.com/v1."),
    });
  });

  it("refuses a host not listed exactly (a subdomain, an internal name)", async () => {
    process.env.STRATA_WORKSPACE_BASE_URL_HOSTS = " GW.example.test , other.example.test";
    expect(await put("https://evil.gw.example.test/v1")).toEqual({
      status: 400,
      body: invalid(hostRefusal("evil.gw.example.test")),
    });
    expect(await put("https://localhost:8443/v1")).toEqual({
      status: 400,
      body: invalid(hostRefusal("localhost")),
    });
  });

  it("accepts a listed host, case-insensitive, on any port", async () => {
    process.env.STRATA_WORKSPACE_BASE_URL_HOSTS = " GW.example.test , other.example.test";
    const res = await put("https://Gw.Example.Test:8443/v1");
    expect(res.status).toBe(200);
    expect((res.body as { secret: { name: string } }).secret.name).toBe(NAME);
  });
});

describe("using a stored base URL whose host is no longer allowed", () => {
  it("calls neither it nor the server's base URL, and the chat says why", async () => {
    process.env.STRATA_WORKSPACE_BASE_URL_HOSTS = "gw.example.test";
    expect((await put("https://gw.example.test/v1")).status).toBe(200);
    process.env.STRATA_WORKSPACE_BASE_URL_HOSTS = "other.example.test";
    const project = await makeProject(scope, `ssrf-${Math.random().toString(36).slice(2, 8)}`, {
      userId: user.id,
      workspaceId: user.workspaceId,
    });
    const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
    requested.length = 0;
    const events = await promptEvents(user, session.id, "hello");
    expect(requested).toEqual([]);
    const assistant = events
      .filter((e) => e.type === "message_end")
      .map(
        (e) => (e.data as { message: { role: string; stopReason?: string; errorMessage?: string } }).message,
      )
      .find((m) => m.role === "assistant");
    expect(assistant?.stopReason).toBe("error");
    expect(assistant?.errorMessage).toBe(REFUSED_TEXT);
    expect(JSON.stringify(events)).not.toContain("gw.example.test");
  });

  it("overlaySecrets: the refused URL is replaced and marked, an allowed one passes unchanged", () => {
    const server = {
      STRATA_WORKSPACE_BASE_URL_HOSTS: "gw.example.test",
      OPENAI_COMPATIBLE_BASE_URL: "https://s/v1",
    };
    expect(overlaySecrets(server, { OPENAI_COMPATIBLE_BASE_URL: "https://10.0.0.5/v1" })).toEqual({
      ...server,
      OPENAI_COMPATIBLE_BASE_URL: REFUSED_BASE_URL,
      STRATA_REFUSED_OPENAI_COMPATIBLE_BASE_URL: REFUSED_TEXT,
    });
    expect(overlaySecrets(server, { OPENAI_COMPATIBLE_BASE_URL: "https://gw.example.test/v1" })).toEqual({
      ...server,
      OPENAI_COMPATIBLE_BASE_URL: "https://gw.example.test/v1",
    });
  });
});
