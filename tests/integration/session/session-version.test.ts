/**
 * The change feed of a session (lib/session/session-version.ts) on the real Postgres: it stays the same while
 * nothing happens and changes on each thing another tab must show — an entry appended, a run started and finished, a
 * message queued for the run.
 */
import { describe, expect, it } from "vitest";
import { appendEntry } from "@/lib/session/append";
import { enqueueForRun } from "@/lib/session/queue";
import { finishRun, startRun } from "@/lib/session/runs";
import { seeSession, sessionVersion } from "@/lib/session/session-version";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";

const stack = withMockStack();

describe("sessionVersion", () => {
  it("changes on an append, a run's start and end and a queued message, and only then", async () => {
    const { session } = await projectWithSession(stack.scope, { "a.txt": "a\n" });
    const v = () => sessionVersion(stack.scope, session.id);
    const seen = [await v()];
    expect(await v()).toBe(seen[0]);
    expect(seen[0]).toMatch(/^:\d+::0\.0$/);
    const entry = await appendEntry(stack.scope, session.id, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 },
    });
    seen.push(await v());
    expect(seen[1]?.startsWith(`${entry.id}:`)).toBe(true);
    const runId = await startRun(stack.scope, session.id, "prompt");
    seen.push(await v());
    expect(seen[2]).toContain(`:${runId}:`);
    await enqueueForRun(stack.scope, session.id, {
      kind: "followUp",
      inputText: "next",
      message: { role: "user", content: [{ type: "text", text: "next" }], timestamp: 2 },
    });
    seen.push(await v());
    expect(seen[3]?.endsWith(".1")).toBe(true);
    await finishRun(stack.scope, runId);
    seen.push(await v());
    expect(new Set(seen).size).toBe(5);
    expect(await v()).toBe(seen[4]);
    expect(await sessionVersion(stack.scope, "00000000-0000-0000-0000-000000000000")).toBe(null);
  });

  it("stamps each viewer and lists who viewed within the last seconds, by name", async () => {
    const { session, actor } = await projectWithSession(stack.scope, { "a.txt": "a\n" });
    const [other] = await stack.scope.query<{ id: string }>(
      "INSERT INTO users (name, email) VALUES ('Bob Viewer', 'bob-' || gen_random_uuid() || '@example.com') RETURNING id",
    );
    const [me] = await stack.scope.query<{ name: string }>("SELECT name FROM users WHERE id = $1", [
      actor.userId,
    ]);
    expect(await seeSession(stack.scope, session.id, actor.userId)).toEqual([
      { userId: actor.userId, name: me.name },
    ]);
    const both = await seeSession(stack.scope, session.id, other.id);
    expect(both.map((v) => v.userId).sort()).toEqual([actor.userId, other.id].sort());
    // Gone after PRESENCE_MS without a poll.
    await stack.scope.query(
      "UPDATE session_viewers SET seen_at = now() - interval '1 minute' WHERE user_id = $1",
      [actor.userId],
    );
    expect(await seeSession(stack.scope, session.id, other.id)).toEqual([
      { userId: other.id, name: "Bob Viewer" },
    ]);
    // While a run is live, a tab streaming it does not poll: who polled since the run started still counts.
    const runId = await startRun(stack.scope, session.id, "prompt");
    await stack.scope.query(
      "UPDATE session_runs SET started_at = now() - interval '2 minutes' WHERE id = $1",
      [runId],
    );
    const during = await seeSession(stack.scope, session.id, other.id);
    expect(during.map((v) => v.userId).sort()).toEqual([actor.userId, other.id].sort());
    await finishRun(stack.scope, runId);
    expect(await seeSession(stack.scope, session.id, other.id)).toEqual([
      { userId: other.id, name: "Bob Viewer" },
    ]);
  });
});
