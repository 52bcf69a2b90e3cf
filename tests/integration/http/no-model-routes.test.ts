/**
 * What the routes answer when no model is configured (a server environment without any provider variable, a
 * workspace without keys): `GET /api/config` says so with the help text, with and without a project; a prompt's run
 * ends with pi's error naming what to set and reaches no provider; a `!command` still runs in the project shell; a
 * workspace key configures the workspace's projects alone. (What the browser shows then is
 * tests/e2e/no-model.spec.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getConfig } from "@/app/api/config/route";
import { DbScope } from "@/lib/db/client";
import { modelConfigHelp } from "@/lib/llm/models";
import { PROVIDER_ENV } from "@/lib/llm/provider-env";
import { insertProject } from "@/lib/projects/projects";
import { setSecret } from "@/lib/secrets";
import { createSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { promptEvents } from "../../helpers/prompt-stream";
import { type MockProvider, startMockProvider } from "../../mock-provider";

/** Every variable that configures a model (README, "Configuration"). */
const MODEL_VARIABLES = [
  ...Object.values(PROVIDER_ENV).flatMap((p) => [p.apiKey, p.baseURL]),
  "OPENAI_COMPATIBLE_MODELS",
  "STRATA_MODELS",
  "STRATA_DEFAULT_MODEL",
];

let scope: DbScope;
let mock: MockProvider;
let user: TestUser;
let other: TestUser;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const name of MODEL_VARIABLES) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  scope = new DbScope();
  mock = await startMockProvider();
  user = await createTestUser("No Model");
  other = await createTestUser("Has Key");
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await scope.release();
  await mock.close();
});

async function config(caller: TestUser, query = ""): Promise<{ status: number; body: unknown }> {
  const res = await getConfig(asUser(caller, `http://127.0.0.1/api/config${query}`));
  return { status: res.status, body: await res.json() };
}

async function projectWithSession(owner: TestUser, files: Record<string, string>) {
  const project = await insertProject(scope, {
    workspaceId: owner.workspaceId,
    name: "nomodel",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(owner.workspaceId, s);
  for (const [path, text] of Object.entries(files)) await vfs.writeFile(`${project.rootPath}/${path}`, text);
  await vfs.flush();
  await s.release();
  const session = await createSession(scope, {
    projectId: project.id,
    cwd: project.rootPath,
    userId: owner.id,
  });
  return { project, session };
}

const NOTHING = { models: [], defaultModel: null, configured: false, help: modelConfigHelp() };

describe("no model configured", () => {
  it("GET /api/config says so, with the help, for the server and for a project", async () => {
    expect(await config(user)).toEqual({ status: 200, body: NOTHING });
    const { project } = await projectWithSession(user, { "README.md": "# Demo\n" });
    expect(await config(user, `?project=${project.id}`)).toEqual({ status: 200, body: NOTHING });
    expect(await config(user, `?workspace=${user.workspaceId}`)).toEqual({ status: 200, body: NOTHING });
  });

  it("a prompt's run ends with the error naming what to set; no provider is called", async () => {
    const { session } = await projectWithSession(user, { "README.md": "# Demo\n" });
    const events = await promptEvents(user, session.id, "Explain the README.");
    const error = events.find((e) => e.type === "error");
    expect(error?.data.message).toBe(modelConfigHelp());
    expect(mock.requests).toEqual([]);
  });

  it("a !command still runs in the project shell", async () => {
    const { session } = await projectWithSession(user, { "README.md": "# Demo\n" });
    const events = await promptEvents(user, session.id, "!ls");
    expect(events.map((e) => e.type)).toEqual(["run_start", "message_start", "message_end", "run_end"]);
    expect(events[2].data.message).toMatchObject({
      role: "bashExecution",
      command: "ls",
      output: "README.md\n",
      exitCode: 0,
      cancelled: false,
    });
    expect(events[3].data).toEqual({ type: "run_end", outcome: "done" });
    expect(mock.requests).toEqual([]);
  });

  it("a workspace key configures that workspace's projects only", async () => {
    await setSecret(scope, other.workspaceId, "ANTHROPIC_API_KEY", "sk-ant-workspace-only", other.id);
    const { project } = await projectWithSession(other, { "README.md": "# Demo\n" });
    const mine = (await config(other, `?project=${project.id}`)).body as {
      configured: boolean;
      models: unknown[];
    };
    expect(mine.configured).toBe(true);
    expect(mine.models.length).toBeGreaterThan(0);
    expect(await config(other)).toEqual({ status: 200, body: NOTHING });
    expect(await config(user, `?workspace=${user.workspaceId}`)).toEqual({ status: 200, body: NOTHING });
  });
});
