/**
 * pi's auto-retry through `runPrompt` against the real Postgres and the mock provider: transient errors are
 * retried with the settings' backoff (read from the trusted project's `.pi/settings.json`), the failed answers
 * stay in the session but not in the next request, exhausted retries and a cancelled wait end the series with
 * pi's `auto_retry_end`, and the Retry button's run (`retry: true`) continues without a second user message.
 */
import { describe, expect, it } from "vitest";
import { NOTHING_TO_RETRY, RETRY_CANCELLED } from "@/lib/agent-session/auto-retry";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { setSessionTrustOverride } from "@/lib/projects/session-resources";
import { loadBranch } from "@/lib/session/context-load";
import { createSession, getSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import { timersStartedBy } from "../../helpers/timers";

const stack = withMockStack();

/** A trusted project whose `.pi/settings.json` holds `retry`, and a new session in it. */
async function sessionWithRetry(retry: Record<string, unknown>) {
  const actor = await getLocalActor(stack.scope);
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

/** The session's branch as `role[:stopReason]` / entry types, with assistant texts or error messages. */
async function storedBranch(sessionId: string): Promise<string[]> {
  const stored = await getSession(stack.scope, sessionId);
  return (await loadBranch(stack.scope, sessionId, stored!.leafId))
    .filter((e) => e.type === "message")
    .map((e) => {
      const m = (e as unknown as { message: Record<string, unknown> }).message;
      if (m.role !== "assistant") return String(m.role);
      const text = (m.content as { type: string; text?: string }[]).map((b) => b.text ?? "").join("");
      return `assistant:${m.stopReason}:${m.stopReason === "stop" ? text : m.errorMessage}`;
    })
    .filter((line) => line !== "system");
}

const providerRequests = () => stack.mock.requests.filter((r) => r.path === "/v1/messages");

/**
 * The waits auto-retry asked for while `fn` ran: the delays of the timers lib/agent-session/auto-retry.ts started (its
 * `sleep`), in order. The waits themselves (a retry starts exactly that long after) are checked in virtual time in
 * tests/unit/agent/auto-retry.test.ts.
 */
const retryWaits = (fn: () => Promise<void>) => timersStartedBy("/lib/agent-session/auto-retry.ts", fn);
const retryEvents = (events: RunEvent[]) => events.filter((e) => e.type.startsWith("auto_retry"));
const messagesOf = (i: number) =>
  (providerRequests()[i].body as { messages: { role: string; content: { text?: string }[] }[] }).messages;

describe("auto-retry in runPrompt", () => {
  it("retries a 529 and then a 429 with the backoff, and answers on the third request", async () => {
    const session = await sessionWithRetry({ baseDelayMs: 100, maxRetries: 3 });
    stack.mock.enqueue(
      { error: { status: 529, message: "Overloaded" } },
      { error: { status: 429, message: "Rate limited" } },
      { text: "Answer." },
    );
    const events: RunEvent[] = [];
    const waits = await retryWaits(() =>
      runPrompt({
        sessionId: session.id,
        text: "hello",
        env: stack.env,
        emit: async (e) => void events.push(e),
      }),
    );
    // It waited 100 ms, then 200 ms: the backoff of the settings, as announced.
    expect(waits).toEqual([100, 200]);

    expect(providerRequests()).toHaveLength(3);
    expect(retryEvents(events)).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 100, errorMessage: "529 Overloaded" },
      {
        type: "auto_retry_start",
        attempt: 2,
        maxAttempts: 3,
        delayMs: 200,
        errorMessage: "429 Rate limited",
      },
      { type: "auto_retry_end", success: true, attempt: 2 },
    ]);
    // pi's order: the failed run ends, the wait is announced, the continued run starts.
    const types = events.filter((e) => e.type !== "message_update").map((e) => e.type);
    const firstStart = types.indexOf("auto_retry_start");
    expect(types.slice(firstStart - 2, firstStart + 3)).toEqual([
      "turn_end",
      "agent_end",
      "auto_retry_start",
      "agent_start",
      "turn_start",
    ]);
    expect(types.slice(-4)).toEqual(["message_end", "auto_retry_end", "turn_end", "agent_end"]);
    // The retries carry the transcript without the failed answers.
    for (const i of [1, 2]) expect(messagesOf(i)).toEqual(messagesOf(0));
    expect(messagesOf(2).map((m) => m.role)).toEqual(["user"]);
    // The session keeps them, as pi's session file does.
    expect(await storedBranch(session.id)).toEqual([
      "user",
      "assistant:error:529 Overloaded",
      "assistant:error:429 Rate limited",
      "assistant:stop:Answer.",
    ]);
  });

  it("gives up after maxRetries with pi's final auto_retry_end and the last error", async () => {
    const session = await sessionWithRetry({ baseDelayMs: 100, maxDelayMs: 150, maxRetries: 2 });
    stack.mock.enqueue(
      { error: { status: 503, message: "Service down" } },
      { error: { status: 503, message: "Service down" } },
      { error: { status: 502, message: "Bad gateway" } },
      { text: "never asked for" },
    );
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "hello",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(providerRequests()).toHaveLength(3);
    expect(retryEvents(events)).toEqual([
      {
        type: "auto_retry_start",
        attempt: 1,
        maxAttempts: 2,
        delayMs: 100,
        errorMessage: "503 Service down",
      },
      // 200 ms capped at maxDelayMs.
      {
        type: "auto_retry_start",
        attempt: 2,
        maxAttempts: 2,
        delayMs: 150,
        errorMessage: "503 Service down",
      },
      { type: "auto_retry_end", success: false, attempt: 2, finalError: "502 Bad gateway" },
    ]);
    expect(stack.mock.pending).toBe(1);
    expect(await storedBranch(session.id)).toEqual([
      "user",
      "assistant:error:503 Service down",
      "assistant:error:503 Service down",
      "assistant:error:502 Bad gateway",
    ]);
  });

  it("an abort during the wait cancels the retry: no further request, the error stays", async () => {
    const session = await sessionWithRetry({ baseDelayMs: 10_000 });
    stack.mock.enqueue({ error: { status: 529, message: "Overloaded" } }, { text: "never asked for" });
    const abort = new AbortController();
    const events: RunEvent[] = [];
    // Aborted on the next turn after the announcement, when the 10 s wait has started; had the abort not cancelled
    // it, the retry would follow after 10 s (a second request, and a success).
    await runPrompt({
      sessionId: session.id,
      text: "hello",
      env: stack.env,
      signal: abort.signal,
      emit: async (e) => {
        events.push(e);
        if (e.type === "auto_retry_start") setImmediate(() => abort.abort());
      },
    });
    expect(providerRequests()).toHaveLength(1);
    expect(stack.mock.pending).toBe(1);
    expect(retryEvents(events)).toEqual([
      {
        type: "auto_retry_start",
        attempt: 1,
        maxAttempts: 3,
        delayMs: 10_000,
        errorMessage: "529 Overloaded",
      },
      { type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED },
    ]);
    expect(events.at(-1)?.type).toBe("auto_retry_end");
    expect(await storedBranch(session.id)).toEqual(["user", "assistant:error:529 Overloaded"]);
  });

  it("hostile settings are clamped: the announced 60 s is the real wait, not an overflowed timer", async () => {
    const session = await sessionWithRetry({ maxRetries: 4, baseDelayMs: 3000000000 });
    stack.mock.enqueue({ error: { status: 529, message: "Overloaded" } }, { text: "never asked for" });
    const abort = new AbortController();
    const events: RunEvent[] = [];
    const waits = await retryWaits(() =>
      runPrompt({
        sessionId: session.id,
        text: "hello",
        env: stack.env,
        signal: abort.signal,
        emit: async (e) => {
          events.push(e);
          if (e.type === "auto_retry_start") setImmediate(() => abort.abort());
        },
      }),
    );
    // The timer asked for is the announced 60 s: an overflowed one (over 2^31-1 ms) would fire at once.
    expect(waits).toEqual([60000]);
    expect(providerRequests()).toHaveLength(1);
    expect(retryEvents(events)).toEqual([
      {
        type: "auto_retry_start",
        attempt: 1,
        maxAttempts: 4,
        delayMs: 60000,
        errorMessage: "529 Overloaded",
      },
      { type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED },
    ]);
  });

  it("an abort during the retried request ends the series as cancelled, not as a success", async () => {
    const session = await sessionWithRetry({ baseDelayMs: 100 });
    stack.mock.enqueue(
      { error: { status: 529, message: "Overloaded" } },
      { text: ["partial", " rest"], holdUntilReleased: "retried" },
      { text: "never asked for" },
    );
    const abort = new AbortController();
    const events: RunEvent[] = [];
    let retrying = false;
    await runPrompt({
      sessionId: session.id,
      text: "hello",
      env: stack.env,
      signal: abort.signal,
      emit: async (e) => {
        events.push(e);
        if (e.type === "auto_retry_start") retrying = true;
        if (retrying && e.type === "message_update") abort.abort();
      },
    });
    expect(providerRequests()).toHaveLength(2);
    expect(stack.mock.pending).toBe(1);
    expect(retryEvents(events)).toEqual([
      { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 100, errorMessage: "529 Overloaded" },
      { type: "auto_retry_end", success: false, attempt: 1, finalError: RETRY_CANCELLED },
    ]);
    // The cancelled series' end follows the aborted message's end.
    const types = events.filter((e) => e.type !== "message_update").map((e) => e.type);
    expect(types.slice(-4)).toEqual(["message_end", "auto_retry_end", "turn_end", "agent_end"]);
    expect(await storedBranch(session.id)).toEqual([
      "user",
      "assistant:error:529 Overloaded",
      "assistant:aborted:Request was aborted",
    ]);
  });

  it("does not retry a refused key, or anything when retry.enabled is false", async () => {
    const session = await sessionWithRetry({ baseDelayMs: 5 });
    stack.mock.enqueue({ error: { status: 401, message: "invalid x-api-key" } });
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "hello",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(providerRequests()).toHaveLength(1);
    expect(retryEvents(events)).toEqual([]);

    const off = await sessionWithRetry({ enabled: false, baseDelayMs: 5 });
    stack.mock.enqueue({ error: { status: 529, message: "Overloaded" } });
    await runPrompt({
      sessionId: off.id,
      text: "hello",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(providerRequests()).toHaveLength(2);
    expect(retryEvents(events)).toEqual([]);
  });
});

describe("runPrompt({ retry: true }) — the Retry button", () => {
  it("re-runs a failed turn from the messages before it, without a second user message", async () => {
    const session = await sessionWithRetry({ baseDelayMs: 5 });
    stack.mock.enqueue({ error: { status: 401, message: "invalid x-api-key" } });
    await runPrompt({ sessionId: session.id, text: "hello", env: stack.env, emit: async () => {} });
    expect(await storedBranch(session.id)).toEqual(["user", "assistant:error:401 invalid x-api-key"]);

    stack.mock.enqueue({ text: "Second try." });
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "",
      retry: true,
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(providerRequests()).toHaveLength(2);
    expect(messagesOf(1)).toEqual(messagesOf(0));
    expect(messagesOf(1).map((m) => m.content.map((c) => c.text).join(""))).toEqual(["hello"]);
    expect(events.filter((e) => e.type === "message_start").map((e) => e.message.role)).toEqual([
      "assistant",
    ]);
    expect(await storedBranch(session.id)).toEqual([
      "user",
      "assistant:error:401 invalid x-api-key",
      "assistant:stop:Second try.",
    ]);
  });

  it("refuses when the last turn did not fail, with no request", async () => {
    const session = await sessionWithRetry({ baseDelayMs: 5 });
    stack.mock.enqueue({ text: "Fine." });
    await runPrompt({ sessionId: session.id, text: "hello", env: stack.env, emit: async () => {} });
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "",
      retry: true,
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(events).toEqual([{ type: "error", message: NOTHING_TO_RETRY }]);
    expect(providerRequests()).toHaveLength(1);
  });
});
