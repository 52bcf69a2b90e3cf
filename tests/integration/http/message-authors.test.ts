/**
 * Who wrote each user message (issue 28), through the real routes, Postgres and the mock provider: the prompt is its
 * caller's, a steer another member queued during the run is theirs, and `GET /api/sessions/:id` names both by the
 * message's timestamp; the pi entries themselves carry no author (exports and shares stay as pi writes them).
 */
import { describe, expect, it } from "vitest";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { GET as getSessionRoute } from "@/app/api/sessions/[id]/route";
import { readSseStream } from "@/components/chat/sse";
import type { AgentMessage } from "@/lib/agent/messages";
import { queuePrompt } from "@/lib/agent-session/session-queue";
import { asUser, createTestUser, signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";

const signedIn = signedInUser();
const stack = withMockStack({ processEnv: true });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

describe("message authors", () => {
  it("names the prompt's caller and the teammate whose steer the run delivered; the entries stay pi's", async () => {
    const f = await projectWithSession(
      stack.scope,
      { "a.txt": "alpha\n" },
      { actor: await signedIn.actor() },
    );
    const grace = await createTestUser("Grace Hopper");
    stack.mock.enqueue(
      { toolCalls: [{ id: "toolu_1", name: "read", input: { path: "a.txt" } }], holdUntilReleased: "g" },
      { text: "Read it." },
    );
    const res = await postPrompt(
      asUser(signedIn.user, `http://t/api/sessions/${f.session.id}/prompt`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "read a" }),
      }),
      ctx(f.session.id),
    );
    const done = readSseStream(res.body as ReadableStream<Uint8Array>, () => {});
    while (stack.mock.requests.length < 1) await new Promise((r) => setTimeout(r, 10));
    const queued = await queuePrompt(stack.scope, {
      sessionId: f.session.id,
      kind: "steer",
      text: "and say hi",
      userId: grace.id,
    });
    expect(queued.status).toBe("queued");
    stack.mock.release("g");
    await done;

    const read = await getSessionRoute(
      asUser(signedIn.user, `http://t/api/sessions/${f.session.id}`),
      ctx(f.session.id),
    );
    const body = (await read.json()) as { messages: AgentMessage[]; authors: Record<string, string> };
    const users = body.messages.filter((m) => m.role === "user");
    expect(users.map((m) => (m.content as { text: string }[])[0].text)).toEqual(["read a", "and say hi"]);
    expect(body.authors).toEqual({
      [String(users[0].timestamp)]: signedIn.user.name,
      [String(users[1].timestamp)]: "Grace Hopper",
    });
    const rows = await stack.scope.query<{ role: string; author: string | null; has_author: boolean }>(
      `SELECT entry->'message'->>'role' AS role, author_user_id AS author, entry::jsonb ? 'author' AS has_author
       FROM session_entries WHERE session_id = $1 AND type = 'message' ORDER BY seq`,
      [f.session.id],
    );
    expect(rows.map((r) => [r.role, r.author, r.has_author])).toEqual([
      ["system", null, false],
      ["user", signedIn.user.id, false],
      ["assistant", null, false],
      ["toolResult", null, false],
      ["user", grace.id, false],
      ["assistant", null, false],
    ]);
  });
});
