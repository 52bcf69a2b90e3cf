/**
 * Many followers of one run on one app instance share one tail of its log (lib/runs/run-tail.ts), through the
 * real route handlers, Postgres and the mock provider: 50 concurrent followers each get exactly the starting
 * stream's events; the reads of `run_events` (and the watched_at ticks) during the run are those of one tail,
 * not one per follower — one read per tick, a `TAIL_MS` pause between two (counted against the pauses the tail
 * asked for, not against elapsed time; the reads per second are measured by `npm run bench`, section `runs`);
 * a follower older than the tail's buffer replays from Postgres and then joins it; the tail stops when its last
 * follower leaves; the 21st concurrent stream of one user is refused with 429.
 */
import { describe, expect, it } from "vitest";
import { MAX_FOLLOWS_PER_CALLER, openFollows, TAIL_MS } from "@/lib/runs";
import { liveTailCount, runFollowMetrics } from "@/lib/runs/run-tail";
import type { TestUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { timersStartedBy } from "../../helpers/timers";
import { newSession, prompt, reader, runEvents, storedEvents, testUser, until, viewer } from "./helpers";

const stack = withMockStack({ processEnv: true });

const FOLLOWERS = 50;
const snapshot = () => ({ ...runFollowMetrics });

describe("one shared tail per run", () => {
  it("50 concurrent followers all get the full sequence; run_events reads are one tail's", async () => {
    const session = await newSession(stack.scope);
    const chunks = Array.from({ length: 20 }, (_, i) => `c${i} `);
    stack.mock.enqueue({ text: chunks, delayMs: 60, holdUntilReleased: "g" });
    const first = reader(await prompt(session.id, { text: "stream to many" }));
    await first.waitFor((e) => e.event === "message_update");
    const runId = first.events[0].data.runId as string;
    // 50 tabs of three people (the owner and two viewers), within each one's cap of 20 streams.
    const people: TestUser[] = [await testUser(), await viewer(stack.scope), await viewer(stack.scope)];
    const before = snapshot();
    let followers: ReturnType<typeof reader>[] = [];
    // The tail's pauses between its reads: the timers lib/runs/run-tail.ts starts (its only timer).
    const pauses = await timersStartedBy("/lib/runs/run-tail.ts", async () => {
      const responses = await Promise.all(
        Array.from({ length: FOLLOWERS }, (_, i) =>
          runEvents(session.id, runId, { query: "after=0", as: people[i % 3] }),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(FOLLOWERS).fill(200));
      followers = responses.map(reader);
      await Promise.all(followers.map((f) => f.waitFor((e) => e.event === "message_update")));
      expect(liveTailCount()).toBe(1);
      stack.mock.release("g");
      await Promise.all([first.done, ...followers.map((f) => f.done)]);
    });
    const used = snapshot();

    const all = first.events;
    expect(all[all.length - 1]).toMatchObject({ event: "run_end", data: { outcome: "done" } });
    expect(all.map((e) => e.id)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    for (const f of followers) expect(f.events).toEqual(all);
    expect(await storedEvents(stack.scope, runId)).toEqual(all);

    const tailReads = used.tailReads - before.tailReads;
    const replayReads = used.replayReads - before.replayReads;
    const watchTicks = used.watchTicks - before.watchTicks;
    // One tail, one read per tick: every pause was TAIL_MS, and the reads are the pauses' ticks plus the last one
    // (which read run_end), however long the run took; none per follower, and no follower read on its own.
    expect(pauses.length).toBeGreaterThan(0);
    expect(pauses.filter((ms) => ms !== TAIL_MS)).toEqual([]);
    expect(tailReads).toBe(pauses.length + 1);
    expect(replayReads).toBe(0);
    // The watch rides on the tail's ticks (the first one, then one per WATCH_MS): never more than one per read.
    expect(watchTicks).toBeGreaterThanOrEqual(1);
    expect(watchTicks).toBeLessThanOrEqual(tailReads);
    // The tail stopped at run_end.
    expect(liveTailCount()).toBe(0);
  });

  it("a follower older than the tail's buffer replays from Postgres, then joins the tail: the same events", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ text: ["one", " two", " three"], delayMs: 50, holdUntilReleased: "g" });
    const first = reader(await prompt(session.id, { text: "go" }));
    await first.waitFor((e) => e.event === "message_update");
    const runId = first.events[0].data.runId as string;
    await until(async () => (await storedEvents(stack.scope, runId)).length >= 3);
    const before = snapshot();
    // The tail starts at seq 2 (its first follower's cursor); a follower from 0 is older than its buffer.
    const late = reader(await runEvents(session.id, runId, { lastEventId: "2" }));
    await late.waitFor(() => true);
    const early = reader(await runEvents(session.id, runId, { query: "after=0" }));
    await early.waitFor((e) => e.id === 3);
    expect(liveTailCount()).toBe(1);
    stack.mock.release("g");
    await Promise.all([first.done, late.done, early.done]);
    expect(early.events).toEqual(first.events);
    expect(late.events).toEqual(first.events.slice(2));
    expect(snapshot().replayReads - before.replayReads).toBe(1);
  });

  it("the tail stops when its last follower leaves; a new follower starts another", async () => {
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ text: ["held", " answer"], holdUntilReleased: "g" });
    const first = reader(await prompt(session.id, { text: "go" }));
    await first.waitFor((e) => e.event === "message_update");
    const runId = first.events[0].data.runId as string;
    const stops = [new AbortController(), new AbortController(), new AbortController()];
    const followers = await Promise.all(
      stops.map(async (c) => reader(await runEvents(session.id, runId, { signal: c.signal }))),
    );
    await Promise.all(followers.map((f) => f.waitFor((e) => e.event === "message_update")));
    expect(liveTailCount()).toBe(1);
    stops[0].abort();
    stops[1].abort();
    // Their streams have ended, so both left the tail; the third still holds it.
    await Promise.all([followers[0].done, followers[1].done]);
    expect(liveTailCount()).toBe(1);
    stops[2].abort();
    await followers[2].done;
    expect(liveTailCount()).toBe(0);
    const again = reader(await runEvents(session.id, runId));
    await again.waitFor((e) => e.event === "message_update");
    expect(liveTailCount()).toBe(1);
    stack.mock.release("g");
    await Promise.all([first.done, again.done]);
    expect(again.events).toEqual(first.events);
  });
});

describe("a caller's concurrent follow streams are capped", () => {
  it("the 21st concurrent stream of one user answers 429 with Retry-After; a freed slot is usable again", async () => {
    const user = await testUser();
    const session = await newSession(stack.scope);
    stack.mock.enqueue({ text: ["held"], holdUntilReleased: "g" });
    const first = reader(await prompt(session.id, { text: "go" }));
    await first.waitFor((e) => e.event === "message_update");
    const runId = first.events[0].data.runId as string;
    expect(MAX_FOLLOWS_PER_CALLER).toBe(20);
    const stops = Array.from({ length: 20 }, () => new AbortController());
    const open = await Promise.all(stops.map((c) => runEvents(session.id, runId, { signal: c.signal })));
    expect(open.map((r) => r.status)).toEqual(Array(20).fill(200));
    const streams = open.map(reader);
    expect(openFollows(user.id)).toBe(20);

    const refused = await runEvents(session.id, runId);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({
      error: {
        code: "too_many_streams",
        message:
          "Too many live run streams: you already follow 20 runs at once on this server (each open Strata tab with a running agent holds one). Close some tabs, or wait for their runs to end, and try again in 5 s.",
      },
    });

    stops[0].abort();
    await streams[0].done;
    expect(openFollows(user.id)).toBe(19);
    const admitted = await runEvents(session.id, runId);
    expect(admitted.status).toBe(200);
    const last = reader(admitted);
    stack.mock.release("g");
    await Promise.all([first.done, last.done, ...streams.slice(1).map((s) => s.done)]);
    expect(last.events).toEqual(first.events);
    expect(openFollows(user.id)).toBe(0);
  });
});
