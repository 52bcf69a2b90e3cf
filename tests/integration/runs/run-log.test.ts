/**
 * The run's event log and its edges, on the real Postgres: the writer merges consecutive token deltas of one
 * content block (and nothing else) and numbers what it stores; a silent run is taken over with a last
 * `run_end` (`taken_over`) that its followers receive, and nothing its late owner writes lands after it; a
 * follower on another request gets the starting stream's events live (how late, the figure in docs/runs.md, is
 * measured by `npm run bench`, section `runs`). The flush timer is checked in virtual time (fake timers).
 */
import { describe, expect, it, vi } from "vitest";
import type { RunEvent } from "@/lib/agent-session/session-run";
import { FLUSH_MS, RunEventLog } from "@/lib/runs";
import { startRun } from "@/lib/session/runs";
import { withMockStack } from "../../helpers/mock-stack";
import { newSession, prompt, reader, runEvents, runRow, storedEvents } from "./helpers";

const stack = withMockStack({ processEnv: true });

const delta = (type: string, contentIndex: number, text: string) =>
  ({
    type: "message_update",
    message: {},
    assistantMessageEvent: { type, contentIndex, delta: text, partial: {} },
  }) as unknown as RunEvent;

const silence = (runId: string) =>
  stack.scope.query("UPDATE session_runs SET heartbeat_at = now() - interval '1 minute' WHERE id = $1", [
    runId,
  ]);

describe("RunEventLog", () => {
  it("merges consecutive deltas of one block and kind, numbers and stores them, sets last_seq", async () => {
    const session = await newSession(stack.scope);
    const runId = await startRun(stack.scope, session.id);
    const log = new RunEventLog(runId);
    const seen: [number, string][] = [];
    log.subscribe(({ seq, data }) => seen.push([seq, data]));
    await log.emit({ type: "agent_start" });
    for (const t of ["He", "llo", " you"]) await log.emit(delta("text_delta", 0, t));
    await log.emit(delta("text_delta", 1, "other block"));
    await log.emit(delta("thinking_delta", 1, "hm"));
    await log.emit(delta("thinking_delta", 1, "m"));
    expect(seen).toEqual([]); // buffered until the flush (≤ 50 ms)
    await log.emit({ type: "run_end", outcome: "done" });
    const d = (type: string, i: number, text: string) =>
      `{"type":"message_update","assistantMessageEvent":{"type":"${type}","contentIndex":${i},"delta":"${text}"}}`;
    const want: [number, string][] = [
      [1, '{"type":"agent_start"}'],
      [2, d("text_delta", 0, "Hello you")],
      [3, d("text_delta", 1, "other block")],
      [4, d("thinking_delta", 1, "hmm")],
      [5, '{"type":"run_end","outcome":"done"}'],
    ];
    expect(seen).toEqual(want);
    expect(await log.close(1000)).toBe(true);
    expect((await storedEvents(stack.scope, runId)).map((e) => [e.id, JSON.stringify(e.data)])).toEqual(want);
    expect(await runRow(stack.scope, runId)).toEqual({ outcome: "done", lastSeq: 5, finished: false });
  });

  it("flushes FLUSH_MS (50 ms) after the first buffered event without an awaited event", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      expect(FLUSH_MS).toBe(50);
      const log = new RunEventLog(undefined);
      const seen: number[] = [];
      log.subscribe(({ seq }) => seen.push(seq));
      await log.emit({ type: "agent_start" });
      vi.advanceTimersByTime(30);
      // A later event joins the buffer; the flush stays due 50 ms after the first one.
      await log.emit(delta("text_delta", 0, "Hi"));
      vi.advanceTimersByTime(19);
      expect(seen).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(seen).toEqual([1, 2]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("takeover of a silent run", () => {
  it("the next run writes its run_end (taken_over); a follower gets it; the late owner writes nothing after it", async () => {
    const session = await newSession(stack.scope);
    const old = await startRun(stack.scope, session.id);
    const log = new RunEventLog(old);
    await log.emit({ type: "run_start", runId: old, kind: "prompt", mode: "prompt" });
    await log.emit({ type: "message_end", message: { role: "user", content: "hi", timestamp: 1 } });
    await silence(old);
    const next = await startRun(stack.scope, session.id);
    const follower = reader(await runEvents(session.id, old, { query: "after=1" }));
    await follower.done;
    expect(follower.events).toEqual([
      {
        id: 2,
        event: "message_end",
        data: { type: "message_end", message: { role: "user", content: "hi", timestamp: 1 } },
      },
      { id: 3, event: "run_end", data: { type: "run_end", outcome: "taken_over" } },
    ]);
    // The old owner wakes up: its events are not stored after the taker's run_end.
    await log.emit({ type: "agent_end", messages: [] });
    await log.emit({ type: "run_end", outcome: "done" });
    await log.close(500);
    expect((await storedEvents(stack.scope, old)).map((e) => e.event)).toEqual([
      "run_start",
      "message_end",
      "run_end",
    ]);
    expect(await runRow(stack.scope, old)).toEqual({ outcome: "taken_over", lastSeq: 3, finished: true });
    expect(await runRow(stack.scope, next)).toMatchObject({ outcome: null, finished: false });
  });

  it("a follower of a run whose owner died closes it itself (no next run needed)", async () => {
    const session = await newSession(stack.scope);
    const dead = await startRun(stack.scope, session.id);
    await silence(dead);
    const follower = reader(await runEvents(session.id, dead));
    await follower.done;
    expect(follower.events).toEqual([
      { id: 1, event: "run_end", data: { type: "run_end", outcome: "taken_over" } },
    ]);
    expect(await runRow(stack.scope, dead)).toEqual({ outcome: "taken_over", lastSeq: 1, finished: true });
  });
});

describe("runs that keep no log", () => {
  it("a finished compaction-like run (no events) is closed for its follower with run_end done", async () => {
    const session = await newSession(stack.scope);
    const runId = await startRun(stack.scope, session.id, "compaction");
    await stack.scope.query(
      "UPDATE session_runs SET finished_at = now() - interval '3 seconds' WHERE id = $1",
      [runId],
    );
    const follower = reader(await runEvents(session.id, runId));
    await follower.done;
    expect(follower.events).toEqual([
      { id: 1, event: "run_end", data: { type: "run_end", outcome: "done" } },
    ]);
    expect(await runRow(stack.scope, runId)).toEqual({ outcome: "done", lastSeq: 1, finished: true });
  });
});

describe("a follower on another request", () => {
  it("gets the starting stream's events live, while the run goes on, and then the same events in all", async () => {
    const session = await newSession(stack.scope);
    const chunks = Array.from({ length: 30 }, (_, i) => `t${i} `);
    stack.mock.enqueue({ text: chunks, delayMs: 60, holdUntilReleased: "g" });
    const first = reader(await prompt(session.id, { text: "stream slowly" }));
    await first.waitFor((e) => e.event === "message_update");
    const runId = first.events[0].data.runId as string;
    // Live: the follower gets a token delta while the answer is held at the gate (the run cannot end before
    // the release), i.e. from its tail of the log, not from a replay after the end.
    const second = reader(await runEvents(session.id, runId));
    await second.waitFor((e) => e.event === "message_update");
    expect(second.events.some((e) => e.event === "run_end")).toBe(false);
    stack.mock.release("g");
    await Promise.all([first.done, second.done]);
    expect(second.events).toEqual(first.events);
    expect(first.events.at(-1)).toMatchObject({ event: "run_end", data: { outcome: "done" } });
    const text = first.events
      .map((e) => e.data.assistantMessageEvent as { type: string; delta?: string } | undefined)
      .filter((m) => m?.type === "text_delta")
      .map((m) => m?.delta)
      .join("");
    expect(text).toBe(chunks.join(""));
  });
});
