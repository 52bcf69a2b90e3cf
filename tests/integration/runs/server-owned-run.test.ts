/**
 * Runs owned by the server (docs/runs.md), through the real route handlers, Postgres and the mock provider: a
 * run outlives its POST response; its log replays from a cursor (`?after=N`, `Last-Event-ID`) and is followed
 * live by other requests, which see exactly the starting stream's events; an abort from another request ends
 * it for every reader; `GET /api/sessions/:id` shows the live run and the messages it started from.
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import { abortLocalRuns } from "@/lib/runs";
import { loadBranch } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import { withMockStack } from "../../helpers/mock-stack";
import {
  abort,
  newSession,
  prompt,
  reader,
  readSession,
  retry,
  runEvents,
  runRow,
  storedEvents,
  until,
  type WireEvent,
} from "./helpers";

const stack = withMockStack({ processEnv: true });

async function texts(sessionId: string): Promise<string[]> {
  const session = await getSession(stack.scope, sessionId);
  const branch = await loadBranch(stack.scope, sessionId, session?.leafId ?? null);
  return branch.flatMap((e) => {
    if (e.type !== "message") return [];
    const m = e.message as AgentMessage;
    if (m.role === "user")
      return [
        `user:${typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : c.type)).join("")}`,
      ];
    if (m.role === "assistant")
      return [
        `assistant:${m.content.map((c) => (c.type === "text" ? c.text : c.type)).join("")}:${m.stopReason}`,
      ];
    return [];
  });
}

const idsOf = (events: WireEvent[]) => events.map((e) => e.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const runIdOf = (events: WireEvent[]) => events[0].data.runId as string;
/** Wait until the run's log is stored to its `run_end` (the POST stream gets events before they are stored). */
const stored = (runId: string) => until(async () => (await runRow(stack.scope, runId)).outcome !== null);

describe("a run belongs to the server", () => {
  it("goes on after its POST response is cancelled and ends done with the answer stored", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ text: ["The answer", " is 42."], holdUntilReleased: "g" });
    const res = await prompt(session.id, { text: "what is it?" });
    expect(res.status).toBe(200);
    const body = (res.body as ReadableStream<Uint8Array>).getReader();
    let seen = "";
    while (!seen.includes("event: message_update"))
      seen += new TextDecoder().decode((await body.read()).value);
    const runId = (/"runId":"([0-9a-f-]{36})"/.exec(seen) as RegExpExecArray)[1];
    // The tab goes away mid-answer: the response is cancelled, then the model goes on.
    await body.cancel();
    stack.mock.release("g");
    await until(
      async () =>
        (await runRow(stack.scope, runId)).finished && (await runRow(stack.scope, runId)).outcome !== null,
    );
    expect(await runRow(stack.scope, runId)).toEqual({
      outcome: "done",
      lastSeq: expect.any(Number),
      finished: true,
    });
    expect(await texts(session.id)).toEqual(["user:what is it?", "assistant:The answer is 42.:stop"]);
    const stored = await storedEvents(stack.scope, runId);
    const { lastSeq } = await runRow(stack.scope, runId);
    expect(idsOf(stored)).toEqual(range(1, lastSeq));
    expect(stored[0].data).toEqual({ type: "run_start", runId, kind: "prompt", mode: "prompt" });
    expect(stored[stored.length - 1].data).toEqual({ type: "run_end", outcome: "done" });
  });

  it("a !command goes on after its POST response is cancelled: stored with its whole output", async () => {
    // (What a reloaded tab shows of it is tests/e2e/shell-run-state.spec.ts.)
    const session = await newSession(stack.scope);
    const res = await prompt(session.id, { text: "!sleep 2 && echo slept" });
    expect(res.status).toBe(200);
    const body = (res.body as ReadableStream<Uint8Array>).getReader();
    let seen = "";
    while (!seen.includes("event: run_start")) seen += new TextDecoder().decode((await body.read()).value);
    const runId = (/"runId":"([0-9a-f-]{36})"/.exec(seen) as RegExpExecArray)[1];
    // The tab goes away as soon as the command started; nothing more of the stream is read.
    await body.cancel();
    await stored(runId);
    expect(await runRow(stack.scope, runId)).toEqual({
      outcome: "done",
      lastSeq: expect.any(Number),
      finished: true,
    });
    const events = await storedEvents(stack.scope, runId);
    expect(events[0].data).toEqual({ type: "run_start", runId, kind: "bash", mode: "bash" });
    const end = events.find((e) => e.data.type === "message_end")?.data.message;
    expect(end).toMatchObject({
      role: "bashExecution",
      command: "sleep 2 && echo slept",
      output: "slept\n",
      exitCode: 0,
      cancelled: false,
    });
    const branch = await loadBranch(
      stack.scope,
      session.id,
      (await getSession(stack.scope, session.id))?.leafId ?? null,
    );
    expect(branch.map((e) => (e.type === "message" ? (e.message as AgentMessage).role : e.type))).toEqual([
      "bashExecution",
    ]);
  });

  it("a second reader on another request, replays from after=N and Last-Event-ID: the same events as the POST", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue(
      { toolCalls: [{ id: "toolu_1", name: "read", input: { path: "a.txt" } }], holdUntilReleased: "g" },
      { text: ["alpha", " it is."] },
    );
    const first = reader(await prompt(session.id, { text: "read a" }));
    await first.waitFor((e) => e.event === "message_update");
    const runId = runIdOf(first.events);
    // A second tab attaches from the start while the run is held.
    const second = reader(await runEvents(session.id, runId, { query: "after=0" }));
    await second.waitFor((e) => e.event === "message_update");
    stack.mock.release("g");
    await first.done;
    await second.done;

    const all = first.events;
    expect(all[0]).toEqual({
      id: 1,
      event: "run_start",
      data: { type: "run_start", runId, kind: "prompt", mode: "prompt" },
    });
    expect(all[all.length - 1]).toEqual({
      id: all.length,
      event: "run_end",
      data: { type: "run_end", outcome: "done" },
    });
    expect(idsOf(all)).toEqual(range(1, all.length));
    expect(second.events).toEqual(all);
    await stored(runId);
    expect(await storedEvents(stack.scope, runId)).toEqual(all);

    // A finished run replays and closes: exactly the events after the cursor.
    const n = 4;
    const replay = reader(await runEvents(session.id, runId, { query: `after=${n}` }));
    await replay.done;
    expect(replay.events).toEqual(all.slice(n));
    expect(idsOf(replay.events)).toEqual(range(n + 1, all.length));
    // Last-Event-ID wins over ?after.
    const resumed = reader(
      await runEvents(session.id, runId, { query: "after=1", lastEventId: String(all.length - 2) }),
    );
    await resumed.done;
    expect(resumed.events).toEqual(all.slice(all.length - 2));
    // A cursor at the end: nothing to replay, the stream closes.
    const atEnd = reader(await runEvents(session.id, runId, { lastEventId: String(all.length) }));
    await atEnd.done;
    expect(atEnd.events).toEqual([]);
  });

  it("merged token deltas concatenate to the full text, in the stream and in the log", async () => {
    const session = await newSession(stack.scope);
    const chunks = Array.from({ length: 40 }, (_, i) => `w${i} `);
    stack.mock.enqueue({ text: chunks });
    const stream = reader(await prompt(session.id, { text: "many tokens" }));
    await stream.done;
    const deltas = stream.events.filter(
      (e) =>
        e.event === "message_update" &&
        (e.data.assistantMessageEvent as { type: string }).type === "text_delta",
    );
    const text = deltas.map((e) => (e.data.assistantMessageEvent as { delta: string }).delta).join("");
    expect(text).toBe(chunks.join(""));
    expect(deltas.length).toBeLessThan(chunks.length);
    await stored(runIdOf(stream.events));
    expect(await storedEvents(stack.scope, runIdOf(stream.events))).toEqual(stream.events);
  });

  it("an abort from another request ends the run (outcome aborted) for the POST stream and a follower", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ text: ["Working", " on it"], holdUntilReleased: "g" });
    const first = reader(await prompt(session.id, { text: "go" }));
    await first.waitFor((e) => e.event === "message_update");
    const runId = runIdOf(first.events);
    const second = reader(await runEvents(session.id, runId));
    await second.waitFor((e) => e.event === "message_update");
    expect(await abort(session.id)).toEqual({ aborted: true, undelivered: [] });
    await Promise.all([first.done, second.done]);
    stack.mock.release("g");
    const end = { event: "run_end", data: { type: "run_end", outcome: "aborted" } };
    expect(first.events[first.events.length - 1]).toMatchObject(end);
    expect(second.events).toEqual(first.events);
    expect(await runRow(stack.scope, runId)).toMatchObject({ outcome: "aborted", finished: true });
    expect(await texts(session.id)).toEqual(["user:go", "assistant:Working:aborted"]);
  });

  it("the owning instance aborts at once, without waiting for its heartbeat to read the flag", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ text: ["Working", " on it"], holdUntilReleased: "g" });
    const run = reader(await prompt(session.id, { text: "go" }));
    await run.waitFor((e) => e.event === "message_update");
    // No abort flag in Postgres: only the in-process path can stop it.
    expect(abortLocalRuns(session.id)).toBe(1);
    await run.done;
    stack.mock.release("g");
    expect(run.events[run.events.length - 1].data).toEqual({ type: "run_end", outcome: "aborted" });
    const [row] = await stack.scope.query<{ abort_requested: boolean }>(
      "SELECT abort_requested FROM session_runs WHERE id = $1",
      [runIdOf(run.events)],
    );
    expect(row.abort_requested).toBe(false);
    expect(abortLocalRuns(session.id)).toBe(0);
  });

  it("a failed turn ends with outcome error; Retry starts a run of mode retry that ends done", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ error: { status: 401, message: "invalid x-api-key" } }, { text: "Again." });
    const failed = reader(await prompt(session.id, { text: "hi" }));
    await failed.done;
    expect(failed.events[failed.events.length - 1].data).toEqual({ type: "run_end", outcome: "error" });
    await stored(runIdOf(failed.events));
    expect(await runRow(stack.scope, runIdOf(failed.events))).toMatchObject({ outcome: "error" });
    const again = reader(await retry(session.id));
    await again.done;
    const runId = runIdOf(again.events);
    expect(again.events[0]).toEqual({
      id: 1,
      event: "run_start",
      data: { type: "run_start", runId, kind: "prompt", mode: "retry" },
    });
    expect(again.events[again.events.length - 1].data).toEqual({ type: "run_end", outcome: "done" });
    await stored(runId);
    expect(await storedEvents(stack.scope, runId)).toEqual(again.events);
    const [row] = await stack.scope.query<{ mode: string }>("SELECT mode FROM session_runs WHERE id = $1", [
      runId,
    ]);
    expect(row.mode).toBe("retry");
  });

  it("404 for an unknown run, a run of another session, and a run id that is not one", async () => {
    const session = await newSession(stack.scope);
    const other = await newSession(stack.scope);
    stack.mock.enqueue({ text: "ok" });
    const done = reader(await prompt(other.id, { text: "hi" }));
    await done.done;
    for (const runId of [crypto.randomUUID(), runIdOf(done.events), "not-a-run"]) {
      const res = await runEvents(session.id, runId);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: "not_found", message: "Run not found" } });
    }
  });

  it("GET session while a run is live: the messages it started from, and the run", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ text: "First answer." }, { text: ["Second", " answer."], holdUntilReleased: "g" });
    await reader(await prompt(session.id, { text: "first" })).done;
    const before = await readSession(session.id);
    const leaf = (await getSession(stack.scope, session.id))?.leafId;
    const run = reader(await prompt(session.id, { text: "second" }));
    await run.waitFor((e) => e.event === "message_update");
    const live = await readSession(session.id);
    expect(live.status).toBe(200);
    expect(live.body.messages).toEqual(before.body.messages);
    expect(live.body.run).toEqual({
      id: runIdOf(run.events),
      kind: "prompt",
      mode: "prompt",
      startLeafId: leaf,
      lastSeq: expect.any(Number),
    });
    expect((live.body.run as { lastSeq: number }).lastSeq).toBeGreaterThanOrEqual(1);
    stack.mock.release("g");
    await run.done;
    const after = await readSession(session.id);
    expect(after.body.run).toBeNull();
    expect((after.body.messages as AgentMessage[]).map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });
});
