/**
 * Steering, follow-ups, abort and `!command` across requests, through the real route handlers, Postgres and
 * the mock provider: a prompt sent while another request's run is live is queued in `session_queue` and
 * delivered by that run at pi's points; an abort hands the undelivered texts back.
 */
import { describe, expect, it, vi } from "vitest";
import { POST as postAbort } from "@/app/api/sessions/[id]/abort/route";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { readSseStream, type SseEvent } from "@/components/chat/sse";
import type { AgentMessage } from "@/lib/agent/messages";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { loadBranch } from "@/lib/session/context-load";
import { claimQueued, enqueueForRun, finishRunIfIdle } from "@/lib/session/queue";
import { finishRun, heartbeatRun, startRun } from "@/lib/session/runs";
import { getSession } from "@/lib/session/store";
import { openWorktreeVfs } from "@/lib/vfs/workspace";
import { asUser, signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const STEER_REQUIRED =
  "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

const stack = withMockStack({ processEnv: true });

async function newSession(files: Record<string, string> = { "a.txt": "alpha\n" }) {
  return (await projectWithSession(stack.scope, files, { actor: await signedIn.actor(), name: "queue" }))
    .session;
}

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const prompt = (id: string, body: Record<string, unknown>, signal?: AbortSignal) =>
  postPrompt(
    asUser(signedIn.user, `http://t/api/sessions/${id}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    }),
    ctx(id),
  );
const abort = async (id: string) =>
  (
    await postAbort(asUser(signedIn.user, `http://t/api/sessions/${id}/abort`, { method: "POST" }), ctx(id))
  ).json();

/** Read a run's SSE stream in the background; `waitFor` resolves on the first event matching. */
function follow(res: Response) {
  const events: { event: string; data: Record<string, unknown> }[] = [];
  const waiters: { test: (e: SseEvent) => boolean; resolve: () => void }[] = [];
  const done = readSseStream(res.body as ReadableStream<Uint8Array>, (e) => {
    events.push({ event: e.event, data: JSON.parse(e.data) });
    for (const w of waiters.filter((w) => w.test(e))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  return {
    events,
    done,
    waitFor: (test: (e: SseEvent) => boolean) =>
      new Promise<void>((resolve) => {
        if (events.some((e) => test({ event: e.event, data: JSON.stringify(e.data) } as SseEvent)))
          return resolve();
        waiters.push({ test, resolve });
      }),
  };
}

async function waitForRequests(n: number) {
  while (stack.mock.requests.length < n) await new Promise((r) => setTimeout(r, 10));
}

async function messagesOf(sessionId: string): Promise<AgentMessage[]> {
  const session = await getSession(stack.scope, sessionId);
  const branch = await loadBranch(stack.scope, sessionId, session?.leafId ?? null);
  return branch
    .filter((e) => e.type === "message")
    .map((e) => (e as { message: AgentMessage }).message)
    .filter((m) => m.role !== "system");
}

const summary = (m: AgentMessage) => {
  if (m.role === "user")
    return `user:${typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : c.type)).join("|")}`;
  if (m.role === "assistant")
    return `assistant:${m.content.map((c) => (c.type === "text" ? c.text : c.type === "toolCall" ? `call ${c.name}` : c.type)).join("|")}`;
  if (m.role === "toolResult") return `toolResult:${m.toolName}`;
  if (m.role === "bashExecution") return `bash:${m.command}`;
  return m.role;
};

describe("prompt while a run is live", () => {
  it("steer: queued (202), reported in queue_update, delivered after the tool batch", async () => {
    const session = await newSession();
    stack.mock.enqueue(
      { toolCalls: [{ id: "toolu_1", name: "read", input: { path: "a.txt" } }], holdUntilReleased: "g" },
      { text: "Read it, and b too." },
    );
    const run = follow(await prompt(session.id, { text: "read a" }));
    await waitForRequests(1);

    const refused = await prompt(session.id, { text: "no behaviour" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: { code: "run_active", message: STEER_REQUIRED } });

    const queued = await prompt(session.id, { text: "also read b", streamingBehavior: "steer" });
    expect(queued.status).toBe(202);
    const body = await queued.json();
    expect(body.queued).toMatchObject({ kind: "steer", text: "also read b" });

    await run.waitFor((e) => e.event === "queue_update" && e.data.includes("also read b"));
    stack.mock.release("g");
    await run.done;

    expect((await messagesOf(session.id)).map(summary)).toEqual([
      "user:read a",
      "assistant:call read",
      "toolResult:read",
      "user:also read b",
      "assistant:Read it, and b too.",
    ]);
    expect(stack.mock.requests).toHaveLength(2);
    const sent = stack.mock.requests[1].body as {
      messages: { role: string; content: { type: string; text?: string }[] }[];
    };
    const last = sent.messages[sent.messages.length - 1];
    expect(last.role).toBe("user");
    expect(last.content.map((c) => c.type)).toEqual(["tool_result", "text"]);
    expect(last.content[1].text).toBe("also read b");
    const updates = run.events.filter((e) => e.event === "queue_update").map((e) => e.data);
    expect(updates).toEqual([
      { type: "queue_update", steering: ["also read b"], followUp: [] },
      { type: "queue_update", steering: [], followUp: [] },
    ]);
    // The lock is free again.
    const next = follow(await prompt(session.id, { text: "thanks" }));
    await next.done;
    expect(stack.mock.requests).toHaveLength(3);
  });

  it("followUp: delivered only when the agent would stop", async () => {
    const session = await newSession();
    stack.mock.enqueue(
      { toolCalls: [{ id: "toolu_1", name: "read", input: { path: "a.txt" } }], holdUntilReleased: "g" },
      { text: "alpha." },
      { text: "Followed up." },
    );
    const run = follow(await prompt(session.id, { text: "read a" }));
    await waitForRequests(1);
    expect((await prompt(session.id, { text: "then summarise", streamingBehavior: "followUp" })).status).toBe(
      202,
    );
    await run.waitFor((e) => e.event === "queue_update" && e.data.includes("then summarise"));
    stack.mock.release("g");
    await run.done;
    expect((await messagesOf(session.id)).map(summary)).toEqual([
      "user:read a",
      "assistant:call read",
      "toolResult:read",
      "assistant:alpha.",
      "user:then summarise",
      "assistant:Followed up.",
    ]);
    expect(stack.mock.requests).toHaveLength(3);
  });

  it("abort hands back the undelivered steer and follow-up texts; nothing more reaches the model", async () => {
    const session = await newSession();
    stack.mock.enqueue({ text: ["Working", " on it"], holdUntilReleased: "g" }, { text: "never" });
    const run = follow(await prompt(session.id, { text: "go" }));
    await waitForRequests(1);
    expect((await prompt(session.id, { text: "steer me", streamingBehavior: "steer" })).status).toBe(202);
    expect((await prompt(session.id, { text: "and later", streamingBehavior: "followUp" })).status).toBe(202);
    expect(await abort(session.id)).toEqual({ aborted: true, undelivered: ["steer me", "and later"] });
    await run.done;
    stack.mock.release("g");
    expect(stack.mock.requests).toHaveLength(1);
    const stored = await messagesOf(session.id);
    expect(stored.map(summary)).toEqual(["user:go", expect.stringMatching(/^assistant:/)]);
    expect(stored[1].role === "assistant" && stored[1].stopReason).toBe("aborted");
    // Nothing is queued any more and the session takes prompts again.
    expect(await abort(session.id)).toEqual({ aborted: false, undelivered: [] });
    stack.mock.enqueue({ text: "back" });
    await follow(await prompt(session.id, { text: "again" })).done;
    expect(stack.mock.requests).toHaveLength(2);
  });
});

describe("edges of the queue", () => {
  it("a client gone mid-run only detaches: the run goes on and delivers the follow-up another tab queued", async () => {
    const session = await newSession();
    stack.mock.enqueue({ text: ["Working", " on it"], holdUntilReleased: "g" }, { text: "Followed up." });
    const first = await prompt(session.id, { text: "go" });
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await waitForRequests(1);
    expect((await prompt(session.id, { text: "from tab B", streamingBehavior: "followUp" })).status).toBe(
      202,
    );
    // The tab goes away: its response is cancelled, the run is not.
    await reader.cancel();
    stack.mock.release("g");
    // Until the run has stored its end (`outcome`, with its `run_end` event).
    for (;;) {
      const live = await stack.scope.query(
        "SELECT 1 FROM session_runs WHERE session_id = $1 AND (finished_at IS NULL OR outcome IS NULL)",
        [session.id],
      );
      if (live.length === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(stack.mock.requests).toHaveLength(2);
    expect((await messagesOf(session.id)).map(summary)).toEqual([
      "user:go",
      "assistant:Working on it",
      "user:from tab B",
      "assistant:Followed up.",
    ]);
    const [run] = await stack.scope.query<{ outcome: string }>(
      "SELECT outcome FROM session_runs WHERE session_id = $1",
      [session.id],
    );
    expect(run.outcome).toBe("done");
  });

  it("refuses blank text, a body that is not JSON, a queued /compact, and queueing behind a shell command", async () => {
    const session = await newSession();
    const blank = await prompt(session.id, { text: "  \n " });
    expect(blank.status).toBe(400);
    expect((await blank.json()).error.message).toBe("text: must contain more than white space");
    const notJson = await postPrompt(
      asUser(signedIn.user, `http://t/api/sessions/${session.id}/prompt`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{",
      }),
      ctx(session.id),
    );
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.message).toBe("The request body is not valid JSON");

    stack.mock.enqueue({ text: ["held", " answer"], holdUntilReleased: "g" });
    const run = follow(await prompt(session.id, { text: "go" }));
    await waitForRequests(1);
    const compact = await prompt(session.id, { text: "/compact now", streamingBehavior: "steer" });
    expect(compact.status).toBe(400);
    expect(await compact.json()).toEqual({
      error: {
        code: "not_queueable",
        message: "/compact cannot be queued. Run it when the agent has finished.",
      },
    });
    stack.mock.release("g");
    await run.done;

    // The shell command holds the session from the moment its POST answers (its run is admitted first) and only
    // ends when aborted below, so the follow-up always meets it.
    const shell = follow(await prompt(session.id, { text: "!sleep 600; echo slept" }));
    const behind = await prompt(session.id, { text: "hello", streamingBehavior: "followUp" });
    expect(behind.status).toBe(409);
    expect((await behind.json()).error.code).toBe("session_busy");
    expect(await abort(session.id)).toEqual({ aborted: true, undelivered: [] });
    await shell.done;
    expect((await messagesOf(session.id)).at(-1)).toMatchObject({
      role: "bashExecution",
      command: "sleep 600; echo slept",
      cancelled: true,
    });
  });
});

describe("runs that end without an agent, runs taken over", () => {
  const followUp = (text: string): AgentMessage => ({
    role: "user",
    content: [{ type: "text", text }],
    timestamp: 1,
  });

  it("/compact and a failing prompt hand queued texts back instead of dropping them", async () => {
    for (const input of [
      { text: "/compact", env: {} },
      { text: "hello", env: {}, modelRef: "nope/nope" },
    ]) {
      const session = await newSession();
      const runId = await startRun(stack.scope, session.id);
      await enqueueForRun(stack.scope, session.id, {
        kind: "followUp",
        inputText: "later",
        message: followUp("later"),
      });
      const events: RunEvent[] = [];
      await runPrompt({ sessionId: session.id, ...input, runId, emit: async (e) => void events.push(e) });
      expect(events.filter((e) => e.type === "queue_returned")).toEqual([
        { type: "queue_returned", texts: ["later"] },
      ]);
      expect(await abort(session.id)).toEqual({ aborted: false, undelivered: [] });
    }
    expect(stack.mock.requests).toHaveLength(0);
  });

  it("a run taken over is told to stop and takes nothing queued for its successor", async () => {
    const session = await newSession();
    const old = await startRun(stack.scope, session.id);
    await finishRun(stack.scope, old); // what a takeover does to a silent run
    expect(await heartbeatRun(stack.scope, old)).toBe(true);
    const next = await startRun(stack.scope, session.id);
    await enqueueForRun(stack.scope, session.id, {
      kind: "steer",
      inputText: "mine",
      message: followUp("mine"),
    });
    expect(await claimQueued(stack.scope, session.id, "steer", "all", old)).toEqual([]);
    expect(
      (await claimQueued(stack.scope, session.id, "steer", "all", next)).map((q) => q.inputText),
    ).toEqual(["mine"]);
    await finishRun(stack.scope, next);
  });

  it("texts left by a gone client come back on the next prompt run, not on a shell command's stream", async () => {
    const session = await newSession();
    const runId = await startRun(stack.scope, session.id);
    await enqueueForRun(stack.scope, session.id, {
      kind: "followUp",
      inputText: "left",
      message: followUp("left"),
    });
    await finishRun(stack.scope, runId); // the run ended without handing it back (its client was gone)
    const shell = follow(await prompt(session.id, { text: "!echo hi" }));
    await shell.done;
    // Nothing is handed back on the shell's stream. Its run's heartbeat (every PULSE_MS) may report the waiting text
    // as a queue_update when the command outlasts a beat (it did under load), so those are checked apart.
    expect(shell.events.map((e) => e.event).filter((e) => e !== "queue_update")).toEqual([
      "run_start",
      "message_start",
      "message_end",
      "run_end",
    ]);
    for (const e of shell.events.filter((x) => x.event === "queue_update"))
      expect([[], ["left"]]).toContainEqual((e.data as { followUp: string[] }).followUp);
    stack.mock.enqueue({ text: "ok" });
    const next = follow(await prompt(session.id, { text: "go on" }));
    await next.done;
    expect(next.events[1]).toEqual({
      event: "queue_returned",
      data: { type: "queue_returned", texts: ["left"] },
    });
  });
});

describe("prompt while the session compacts", () => {
  it("is refused with pi's compaction text, also with a streamingBehavior; !command still runs", async () => {
    const session = await newSession();
    const runId = await startRun(stack.scope, session.id, "compaction");
    for (const body of [{ text: "hi" }, { text: "hi", streamingBehavior: "steer" }]) {
      const res = await prompt(session.id, body);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        error: {
          code: "compacting",
          message:
            "Cannot submit a prompt while compaction is in progress. Wait for compaction to finish and retry.",
        },
      });
    }
    await finishRun(stack.scope, runId);
    expect(stack.mock.requests).toHaveLength(0);
  });
});

describe("session_queue", () => {
  it("a run finishes only when nothing waits; nothing is queued once it has finished", async () => {
    const session = await newSession();
    const runId = await startRun(stack.scope, session.id);
    const message: AgentMessage = { role: "user", content: [{ type: "text", text: "late" }], timestamp: 1 };
    const queued = await enqueueForRun(stack.scope, session.id, {
      kind: "followUp",
      inputText: "late",
      message,
    });
    expect(queued).toMatchObject({ kind: "followUp", inputText: "late", message });
    expect(await finishRunIfIdle(stack.scope, session.id, runId)).toEqual({ finished: false });
    expect(
      (await claimQueued(stack.scope, session.id, "followUp", "one-at-a-time")).map((q) => q.inputText),
    ).toEqual(["late"]);
    expect(await claimQueued(stack.scope, session.id, "followUp")).toEqual([]);
    expect(await finishRunIfIdle(stack.scope, session.id, runId)).toEqual({ finished: true });
    expect(
      await enqueueForRun(stack.scope, session.id, { kind: "steer", inputText: "x", message }),
    ).toBeNull();
  });

  it("one-at-a-time claims oldest first; concurrent claims never share a row", async () => {
    const session = await newSession();
    const runId = await startRun(stack.scope, session.id);
    for (const text of ["1", "2", "3", "4"])
      await enqueueForRun(stack.scope, session.id, {
        kind: "steer",
        inputText: text,
        message: { role: "user", content: text, timestamp: 1 },
      });
    expect(
      (await claimQueued(stack.scope, session.id, "steer", "one-at-a-time")).map((q) => q.inputText),
    ).toEqual(["1"]);
    const scopes = [new DbScope(), new DbScope(), new DbScope()];
    const claims = await Promise.all(scopes.map((s) => claimQueued(s, session.id, "steer", "one-at-a-time")));
    await Promise.all(scopes.map((s) => s.release()));
    expect(
      claims
        .flat()
        .map((q) => q.inputText)
        .sort(),
    ).toEqual(["2", "3", "4"]);
    await finishRun(stack.scope, runId);
  });
});

describe("!command", () => {
  it("runs on the VFS, streams and stores a bashExecution; !! stays out of the model's context", async () => {
    const session = await newSession();
    const bash = follow(await prompt(session.id, { text: "!echo hi > b.txt; cat b.txt a.txt" }));
    await bash.done;
    const end = bash.events.find((e) => e.event === "message_end")?.data.message as Record<string, unknown>;
    expect(end).toEqual({
      role: "bashExecution",
      command: "echo hi > b.txt; cat b.txt a.txt",
      output: "hi\nalpha\n",
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: expect.any(Number),
    });
    expect(bash.events.find((e) => e.event === "files_changed")?.data).toMatchObject({ paths: ["b.txt"] });
    await follow(await prompt(session.id, { text: "!!cat missing.txt" })).done;
    stack.mock.enqueue({ text: "ok" });
    await follow(await prompt(session.id, { text: "what did I run?" })).done;
    const sent = stack.mock.requests[0].body as {
      messages: { role: string; content: { type: string; text?: string }[] }[];
    };
    expect(sent.messages.map((m) => [m.role, m.content.map((c) => c.text)])).toEqual([
      ["user", ["Ran `echo hi > b.txt; cat b.txt a.txt`\n```\nhi\nalpha\n\n```", "what did I run?"]],
    ]);
    const stored = await messagesOf(session.id);
    expect(stored.map(summary)).toEqual([
      "bash:echo hi > b.txt; cat b.txt a.txt",
      "bash:cat missing.txt",
      "user:what did I run?",
      "assistant:ok",
    ]);
    const excluded = stored[1] as Extract<AgentMessage, { role: "bashExecution" }>;
    expect(excluded.excludeFromContext).toBe(true);
    expect(excluded.exitCode).toBe(1);
  });

  it("frees the session before the result reaches the client: a prompt right after it is not refused", async () => {
    const session = await newSession();
    const bash = follow(await prompt(session.id, { text: "!cat a.txt" }));
    await bash.waitFor((e) => e.event === "message_end");
    stack.mock.enqueue({ text: "next" });
    const next = await prompt(session.id, { text: "and now?" });
    expect(next.status).toBe(200);
    await Promise.all([bash.done, follow(next).done]);
    expect((await messagesOf(session.id)).map(summary)).toEqual([
      "bash:cat a.txt",
      "user:and now?",
      "assistant:next",
    ]);
  });

  it("a client gone mid-command only detaches: the command runs to its end, stored with the files it wrote", async () => {
    const session = await newSession();
    const res = await prompt(session.id, { text: "!echo w > w.txt; sleep 1; echo more >> w.txt" });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    // The run has started (its first event); the tab goes away before the command's `sleep 1` can end.
    await reader.read();
    await reader.cancel();
    // Stored when the command has ended (the wait is only a hang detector).
    await vi.waitFor(async () => expect(await messagesOf(session.id)).toHaveLength(1), {
      timeout: 20_000,
      interval: 50,
    });
    const stored = await messagesOf(session.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ role: "bashExecution", cancelled: false, output: "", exitCode: 0 });
    const s = new DbScope();
    const row = (await getSession(stack.scope, session.id))!;
    const { vfs } = openWorktreeVfs(signedIn.user.workspaceId, { sessionId: session.id, root: row.cwd }, s);
    const cwd = row.cwd;
    expect(await vfs.readText(`${cwd}/w.txt`)).toBe("w\nmore\n");
    await s.release();
  });

  it("during a live run: runs at once, stored after the run's messages", async () => {
    const session = await newSession();
    stack.mock.enqueue({ text: ["thinking", " done"], holdUntilReleased: "g" });
    const run = follow(await prompt(session.id, { text: "go" }));
    await waitForRequests(1);
    const bash = follow(await prompt(session.id, { text: "!cat a.txt" }));
    await bash.done;
    const end = bash.events.find((e) => e.event === "message_end");
    expect((end?.data.message as { output?: string } | undefined)?.output).toBe("alpha\n");
    stack.mock.release("g");
    await run.done;
    expect((await messagesOf(session.id)).map(summary)).toEqual([
      "user:go",
      "assistant:thinking done",
      "bash:cat a.txt",
    ]);
  });
});
