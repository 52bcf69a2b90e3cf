/**
 * The context inspector's promise, against the routes it and the chat call (real Postgres, the mock provider): for a
 * pi session whose history came from Anthropic (thinking with signatures, a redacted thinking block, a tool call,
 * images in a user message and a tool result; tests/helpers/session-files.ts) imported through
 * `POST /api/projects/:id/sessions/import` and switched to a non-vision OpenAI model (`openai/gpt-text-only`,
 * `PUT /api/sessions/:id/model`), the payload `POST /api/sessions/:id/preview` answers for a prompt is, byte for
 * byte, the body the provider receives when `POST /api/sessions/:id/prompt` sends that prompt: one request, to
 * OpenAI Responses for gpt-text-only, whose answer ends the run. (What the inspector shows of the preview:
 * tests/e2e/context-inspector.spec.ts.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as importSession } from "@/app/api/projects/[id]/sessions/import/route";
import { PUT as putModel } from "@/app/api/sessions/[id]/model/route";
import { POST as postPreview } from "@/app/api/sessions/[id]/preview/route";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { promptEvents } from "../../helpers/prompt-stream";
import { ANTHROPIC_IMAGE_HISTORY, HISTORY_PNG, NOTES_WORKED_EXAMPLE } from "../../helpers/session-files";

const MODEL = "openai/gpt-text-only";
const PROMPT = "Describe the screenshots again, briefly.";

const stack = withMockStack({
  provider: ["anthropic", "openai"],
  reset: false,
  processEnv: true,
  extraEnv: {
    // The e2e server's non-vision OpenAI model (tests/e2e/server.ts).
    STRATA_MODELS: JSON.stringify([
      { provider: "openai", id: "gpt-text-only", name: "GPT (text only)", input: ["text"] },
      { provider: "anthropic", id: "claude-text-only", name: "Claude (text only)", input: ["text"] },
    ]),
  },
});
let user: TestUser;

beforeAll(async () => {
  user = await createTestUser();
});

const json = (method: string, url: string, body: unknown) =>
  asUser(user, url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the inspector's previewed payload is the body sent", () => {
  it("an imported Anthropic history on openai/gpt-text-only: preview, then the same prompt sent", async () => {
    const project = await insertProject(stack.scope, {
      workspaceId: user.workspaceId,
      name: "inspect",
      source: null,
    });
    const s = new DbScope();
    const { vfs } = openWorkspaceVfs(user.workspaceId, s);
    await vfs.writeFile(`${project.rootPath}/README.md`, "# Demo\n");
    await vfs.flush();
    await s.release();

    const imported = await importSession(
      asUser(
        user,
        `http://127.0.0.1/api/projects/${project.id}/sessions/import?name=anthropic-history.jsonl`,
        {
          method: "POST",
          headers: { "content-type": "application/x-ndjson" },
          body: ANTHROPIC_IMAGE_HISTORY,
        },
      ),
      { params: Promise.resolve({ id: project.id }) },
    );
    expect(imported.status).toBe(201);
    const { session } = (await imported.json()) as { session: { id: string; model: string } };
    expect(session.model).toBe("anthropic/claude-sonnet-4-5");
    const id = session.id;
    const params = { params: Promise.resolve({ id }) };

    // The chat's model picker: the switch is stored in the session.
    const switched = await putModel(
      json("PUT", `http://127.0.0.1/api/sessions/${id}/model`, { model: MODEL }),
      params,
    );
    expect([switched.status, await switched.json()]).toEqual([200, { model: MODEL }]);

    // The inspector previews the prompt for the model the chat shows.
    const previewed = await postPreview(
      json("POST", `http://127.0.0.1/api/sessions/${id}/preview`, { text: PROMPT, model: MODEL }),
      params,
    );
    expect(previewed.status).toBe(200);
    const preview = (await previewed.json()) as { payload: { url: string; body: unknown } | null };
    expect(preview.payload?.url).toBe(`${stack.mock.url}/v1/responses`);
    const body = JSON.stringify(preview.payload?.body);
    expect(body).toContain(PROMPT);
    expect(body).not.toContain(HISTORY_PNG);
    expect(stack.mock.requests).toEqual([]);

    // The chat sends the same prompt with the same model.
    stack.mock.enqueue({ text: "The login form, twice." });
    const events = await promptEvents(user, id, { text: PROMPT, model: MODEL });
    const requests = stack.mock.requests;
    expect(requests.map((r) => `${r.path} ${(r.body as { model?: string }).model}`)).toEqual([
      "/v1/responses gpt-text-only",
    ]);
    expect(requests[0].rawBody).toBe(body);

    const answer = events.filter((e) => e.type === "message_end").at(-1)?.data.message as {
      role: string;
      content: { type: string; text?: string }[];
    };
    expect(answer.role).toBe("assistant");
    expect(answer.content.map((c) => [c.type, c.text])).toEqual([["text", "The login form, twice."]]);
    expect(events.at(-1)?.data).toEqual({ type: "run_end", outcome: "done" });
  });

  it("the study notes' worked example on an Anthropic model without image input: preview, then the same prompt sent", async () => {
    const project = await insertProject(stack.scope, {
      workspaceId: user.workspaceId,
      name: "notes",
      source: null,
    });
    const s = new DbScope();
    const { vfs } = openWorkspaceVfs(user.workspaceId, s);
    await vfs.writeFile(`${project.rootPath}/login.ts`, "export const login = () => 401;\n");
    await vfs.flush();
    await s.release();
    const imported = await importSession(
      asUser(user, `http://127.0.0.1/api/projects/${project.id}/sessions/import?name=notes.jsonl`, {
        method: "POST",
        headers: { "content-type": "application/x-ndjson" },
        body: NOTES_WORKED_EXAMPLE,
      }),
      { params: Promise.resolve({ id: project.id }) },
    );
    expect(imported.status).toBe(201);
    const id = ((await imported.json()) as { session: { id: string } }).session.id;
    const model = "anthropic/claude-text-only";
    const text = "继续修复";
    const previewed = await postPreview(
      json("POST", `http://127.0.0.1/api/sessions/${id}/preview`, { text, model }),
      { params: Promise.resolve({ id }) },
    );
    expect(previewed.status).toBe(200);
    const preview = (await previewed.json()) as { payload: { url: string; body: unknown } | null };
    expect(preview.payload?.url).toBe(`${stack.mock.url}/v1/messages`);
    const body = JSON.stringify(preview.payload?.body);
    // The failed turn is not replayed, the image became pi's placeholder, the !command and the custom message are user text.
    expect(body).not.toContain("overloaded_error");
    expect(body).not.toContain(HISTORY_PNG);
    expect(body).toContain("Ran `git diff --stat`");
    expect(body).toContain("CI: the login job failed on main.");

    stack.mock.reset();
    stack.mock.enqueue({ text: "Fixed." });
    await promptEvents(user, id, { text, model });
    expect(stack.mock.requests.map((r) => `${r.path} ${(r.body as { model?: string }).model}`)).toEqual([
      "/v1/messages claude-text-only",
    ]);
    expect(stack.mock.requests[0].rawBody).toBe(body);
  });
});
