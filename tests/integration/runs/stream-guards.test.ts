/**
 * Misbehaving providers through the prompt route, Postgres and the mock provider (lib/llm/stream-guards.ts): a
 * 20 MB answer ends at the 8 MiB output cap with `length` and the cap's error text, and the turn stored holds
 * exactly the 8 MiB; a provider that answers 200 and then sends nothing fails the turn after
 * `STRATA_STREAM_IDLE_MS` with an error pi's auto-retry repeats; meanwhile another session is answered; and both
 * sessions take their next prompt.
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { DbScope } from "@/lib/db/client";
import type { AssistantMessage } from "@/lib/llm/types";
import { setSessionTrustOverride } from "@/lib/projects/session-resources";
import { loadBranch } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { setEnv } from "../../helpers/env";
import { withMockStack } from "../../helpers/mock-stack";
import { abort, newSession, prompt, reader, testUser, type WireEvent } from "./helpers";

const stack = withMockStack({ processEnv: true });

const CAP_TEXT =
  "The answer was cut off after 8 MiB, the most one turn may stream (text, thinking and tool-call arguments; " +
  "STRATA_MAX_TURN_OUTPUT_BYTES). What arrived up to the cut is kept. Ask for a shorter answer, or for the work " +
  "in smaller steps (for example one file per turn).";

/** The assistant messages a run's stream ended (`message_end`), in order. */
const answers = (events: WireEvent[]) =>
  events
    .filter((e) => e.event === "message_end" && (e.data.message as AgentMessage).role === "assistant")
    .map((e) => e.data.message as AssistantMessage);
const textOf = (m: AssistantMessage) => m.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** The assistant messages stored on the session's branch. */
async function storedAnswers(sessionId: string): Promise<AssistantMessage[]> {
  const session = await getSession(stack.scope, sessionId);
  const branch = await loadBranch(stack.scope, sessionId, session?.leafId ?? null);
  return branch.flatMap((e) =>
    e.type === "message" && (e.message as AgentMessage).role === "assistant"
      ? [e.message as AssistantMessage]
      : [],
  );
}

/** One prompt, read to the end of its stream. */
async function promptToEnd(sessionId: string, text: string): Promise<WireEvent[]> {
  const res = await prompt(sessionId, { text });
  expect(res.status).toBe(200);
  const r = reader(res);
  await r.done;
  return r.events;
}

describe("the output cap", () => {
  it("ends a 20 MB answer at 8 MiB with length and the cap's text, stores the 8 MiB, and frees the session", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ bulkText: { bytes: 20 * 1024 * 1024 } }, { text: "Short." });
    const events = await promptToEnd(session.id, "Write a lot.");
    const [cut] = answers(events);
    expect([cut.stopReason, cut.errorMessage, textOf(cut).length]).toEqual(["length", CAP_TEXT, 8_388_608]);
    expect(events.at(-1)?.data).toEqual({ type: "run_end", outcome: "done" });
    const [stored] = await storedAnswers(session.id);
    expect([stored.stopReason, stored.errorMessage, textOf(stored)]).toEqual([
      "length",
      CAP_TEXT,
      "x".repeat(8_388_608),
    ]);

    const next = answers(await promptToEnd(session.id, "Now briefly."));
    expect(next.map((m) => [m.stopReason, textOf(m)])).toEqual([["stop", "Short."]]);
  }, 120_000);
});

describe("a provider that answers 200 and then sends nothing", () => {
  /** A session whose trusted project retries once after 100 ms (`.pi/settings.json`). */
  async function sessionRetryingOnce() {
    const session = await newSession(stack.scope);
    const s = new DbScope();
    const { vfs } = openWorkspaceVfs((await testUser()).workspaceId, s);
    await vfs.writeFile(
      `${session.cwd}/.pi/settings.json`,
      JSON.stringify({ retry: { baseDelayMs: 100, maxRetries: 1 } }),
    );
    await vfs.flush();
    await s.release();
    await setSessionTrustOverride(stack.scope, session.id, true);
    return session;
  }

  it("fails the turn after STRATA_STREAM_IDLE_MS with the timeout, which auto-retry repeats; the session is free", async () => {
    const restore = setEnv({ STRATA_STREAM_IDLE_MS: "200" });
    try {
      const session = await sessionRetryingOnce();
      stack.mock.enqueue(
        { holdUntilReleased: "never", holdAt: "headers" },
        { text: "Recovered." },
        { text: "Next." },
      );
      const timeout =
        "The provider sent nothing for 200 ms, so the response timed out (STRATA_STREAM_IDLE_MS). What arrived before is kept.";
      const events = await promptToEnd(session.id, "Hello?");
      expect(events.filter((e) => e.event.startsWith("auto_retry")).map((e) => e.data)).toEqual([
        { type: "auto_retry_start", attempt: 1, maxAttempts: 1, delayMs: 100, errorMessage: timeout },
        { type: "auto_retry_end", success: true, attempt: 1 },
      ]);
      expect(answers(events).map((m) => [m.stopReason, m.errorMessage ?? textOf(m)])).toEqual([
        ["error", timeout],
        ["stop", "Recovered."],
      ]);
      // The silent request was given up: the mock saw its client close the connection.
      await expect.poll(() => stack.mock.requests[0]?.aborted).toBe(true);
      expect((await storedAnswers(session.id)).map((m) => m.stopReason)).toEqual(["error", "stop"]);

      const next = answers(await promptToEnd(session.id, "Again."));
      expect(next.map((m) => [m.stopReason, textOf(m)])).toEqual([["stop", "Next."]]);
    } finally {
      restore();
    }
  });

  it("holds only its own session: another session's prompt is answered while it waits", async () => {
    // A window far beyond the test: the silent run can end only by the abort below, so the order is certain.
    const restore = setEnv({ STRATA_STREAM_IDLE_MS: "600000" });
    try {
      const [silent, other] = [await newSession(stack.scope), await newSession(stack.scope)];
      stack.mock.enqueue({ holdUntilReleased: "never", holdAt: "headers" });
      const res = await prompt(silent.id, { text: "Hello?" });
      expect(res.status).toBe(200);
      const waiting = reader(res);
      const ended: string[] = [];
      const silentEnded = waiting.done.then(() => ended.push("silent"));
      await expect.poll(() => stack.mock.requests.length).toBe(1);

      stack.mock.enqueue({ text: "Answered." });
      const answered = answers(await promptToEnd(other.id, "Anyone?"));
      ended.push("other");
      expect(answered.map((m) => [m.stopReason, textOf(m)])).toEqual([["stop", "Answered."]]);

      expect(await abort(silent.id)).toMatchObject({ aborted: true });
      await silentEnded;
      expect(ended).toEqual(["other", "silent"]);
      expect(answers(waiting.events).map((m) => m.stopReason)).toEqual(["aborted"]);
    } finally {
      restore();
    }
  });
});
