/**
 * What one prompt asks of Postgres before its model request, through the real route handler: the session row is
 * read once (authorisation) and locked once (the run lock, which also gives the leaf the run starts on), the
 * project row read once; the rows are passed down instead of read again (the provider environment, the session
 * runtime, trust, the team rules preview). Every statement the Neon driver sends is recorded.
 */
import { Client } from "@neondatabase/serverless";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { readSseStream } from "@/components/chat/sse";
import { insertProject } from "@/lib/projects/projects";
import { createSession } from "@/lib/session/store";
import { asUser, createTestUser, type TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";

let user: TestUser;
const stack = withMockStack({ reset: false, processEnv: true });
beforeAll(async () => {
  user = await createTestUser();
});

/** Records each statement's text (whitespace collapsed) with the number of model requests made when it was sent. */
function recordStatements(): { text: string; requestsBefore: number }[] {
  const log: { text: string; requestsBefore: number }[] = [];
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === "string" ? first : String(first?.text ?? "");
    log.push({ text: text.replace(/\s+/g, " ").trim(), requestsBefore: stack.mock.requests.length });
    return query.apply(this, args as never);
  } as typeof query;
  onTestFinished(() => {
    Client.prototype.query = query;
  });
  return log;
}

async function prompt(sessionId: string, text: string) {
  const res = await postPrompt(
    asUser(user, `http://t/api/sessions/${sessionId}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text }),
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );
  expect(res.status).toBe(200);
  const types: string[] = [];
  await readSseStream(res.body as ReadableStream<Uint8Array>, (e) => types.push(e.event));
  return types;
}

describe("a prompt's statements before the model request", () => {
  it("read the session row once and lock it once, and read the project row once", async () => {
    const project = await insertProject(stack.scope, {
      workspaceId: user.workspaceId,
      name: "reads",
      source: null,
    });
    const session = await createSession(stack.scope, { projectId: project.id, cwd: project.rootPath });
    stack.mock.enqueue({ text: "one" }, { text: "two" });
    await prompt(session.id, "first");
    const log = recordStatements();
    expect(await prompt(session.id, "next")).toContain("run_end");
    expect(stack.mock.requests).toHaveLength(2);
    const before = log.filter((s) => s.requestsBefore === 1).map((s) => s.text);
    expect(before.filter((t) => /^SELECT [^()]* FROM sessions\b/.test(t))).toEqual([
      "SELECT * FROM sessions WHERE id = $1",
      "SELECT leaf_id FROM sessions WHERE id = $1 FOR UPDATE",
    ]);
    expect(before.filter((t) => /\bFROM projects\b/.test(t))).toEqual([
      "SELECT * FROM projects WHERE id = $1",
    ]);
    // No statement joins or sub-selects the session row for a column the first read already had.
    expect(
      before.filter((t) =>
        /JOIN sessions|SELECT trust_override|SELECT p\.workspace_id FROM sessions/.test(t),
      ),
    ).toEqual([]);
  });
});
