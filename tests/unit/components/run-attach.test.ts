import { describe, expect, it } from "vitest";
import { ApiError } from "@/components/api-client";
import {
  type ChatAction,
  initialChatState,
  reduceChat,
  runTakenOverText,
} from "@/components/chat/reduce-events";
import {
  followRun,
  REATTACH_DELAYS_MS,
  RunCursor,
  rememberRun,
  rememberSent,
  SENT_CLAIM_MS,
  seqOf,
  startedHere,
} from "@/components/chat/run-attach";
import type { SseEvent } from "@/components/chat/sse";
import type { AgentMessage } from "@/lib/agent/messages";

const enc = new TextEncoder();
const frame = (seq: number, type: string, data: object) =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** A stream of `text`, then closed, or errored like a dropped connection (`drop`). */
function stream(text: string, drop = false): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    // Erroring in `start` would discard the queued chunk: the drop comes on the read after it.
    pull(c) {
      if (!sent) {
        sent = true;
        c.enqueue(enc.encode(text));
      } else if (drop) c.error(new TypeError("network error"));
      else c.close();
    },
  });
}

const start = frame(1, "run_start", { runId: "run-1", kind: "prompt", mode: "prompt" });
const agentStart = frame(2, "agent_start", {});
const delta = (seq: number, d: string) =>
  frame(seq, "message_update", { assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: d } });
const end = (seq: number, outcome = "done") => frame(seq, "run_end", { outcome });

describe("seqOf", () => {
  it("reads positive integer ids only", () => {
    expect([seqOf("7"), seqOf("0"), seqOf(undefined), seqOf("x"), seqOf("-1"), seqOf("1.5")]).toEqual([
      7,
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe("RunCursor", () => {
  it("admits each seq once, in order, and records run_start and run_end", () => {
    const c = new RunCursor();
    const ev = (id: string | undefined, event: string, data = "{}"): SseEvent => ({ id, event, data });
    expect(c.admit(ev("1", "run_start", '{"runId":"r9","mode":"retry"}'))).toBe(true);
    expect([c.runId, c.mode, c.seq]).toEqual(["r9", "retry", 1]);
    expect(c.admit(ev("2", "agent_start"))).toBe(true);
    expect(c.admit(ev("2", "agent_start"))).toBe(false);
    expect(c.admit(ev("1", "run_start"))).toBe(false);
    // An event without an id (a comment-only server, the opening queue_returned) cannot be deduplicated.
    expect(c.admit(ev(undefined, "queue_returned"))).toBe(true);
    expect(c.seq).toBe(2);
    expect(c.admit(ev("3", "run_end", '{"outcome":"aborted"}'))).toBe(true);
    expect([c.outcome, c.seq]).toEqual(["aborted", 3]);
  });
});

describe("followRun", () => {
  const run = async (
    first: ReadableStream<Uint8Array> | undefined,
    answers: (ReadableStream<Uint8Array> | Error)[],
    cursor = new RunCursor(),
  ) => {
    const opened: { runId: string; after: number }[] = [];
    const slept: number[] = [];
    const seen: string[] = [];
    const reconnecting: [number, number, string][] = [];
    const result = await followRun({
      cursor,
      first,
      signal: new AbortController().signal,
      open: async (runId, after) => {
        opened.push({ runId, after });
        const next = answers.shift();
        if (!next) throw new Error("no more answers scripted");
        if (next instanceof Error) throw next;
        return next;
      },
      onEvent: (sse) => seen.push(`${sse.id}:${sse.event}`),
      onReconnecting: (attempt, delayMs, reason) => reconnecting.push([attempt, delayMs, reason]),
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    return { result, opened, slept, seen, reconnecting };
  };

  it("re-attaches a dropped POST stream from the last seq and skips what it replays", async () => {
    const out = await run(stream(start + agentStart + delta(3, "Hel"), true), [
      // The server replays from the cursor; a duplicate of seq 3 must not be applied twice.
      stream(delta(3, "Hel") + delta(4, "lo") + end(5)),
    ]);
    expect(out.result).toEqual({ kind: "ended", outcome: "done" });
    expect(out.opened).toEqual([{ runId: "run-1", after: 3 }]);
    expect(out.slept).toEqual([500]);
    expect(out.reconnecting).toEqual([[1, 500, "network error"]]);
    expect(out.seen).toEqual([
      "1:run_start",
      "2:agent_start",
      "3:message_update",
      "4:message_update",
      "5:run_end",
    ]);
  });

  it("a stream that closes cleanly before run_end is a drop too", async () => {
    const out = await run(stream(start + agentStart), [stream(end(3, "aborted"))]);
    expect(out.result).toEqual({ kind: "ended", outcome: "aborted" });
    expect(out.opened).toEqual([{ runId: "run-1", after: 2 }]);
    expect(out.reconnecting[0]?.[2]).toBe("The run's event stream ended before the run did");
  });

  it("backs off 0.5/1/2/4 s, then reports the stream lost with the last reason", async () => {
    const down = () => new ApiError(0, "network_error", "Failed to fetch");
    const out = await run(stream(start, true), [down(), down(), down(), down()]);
    expect(out.result).toEqual({ kind: "lost", error: "Failed to fetch" });
    expect(out.slept).toEqual([500, 1000, 2000, 4000]);
    expect([...REATTACH_DELAYS_MS]).toEqual([500, 1000, 2000, 4000]);
    expect(out.opened.map((o) => o.after)).toEqual([1, 1, 1, 1]);
  });

  it("progress resets the backoff", async () => {
    const out = await run(stream(start, true), [
      new ApiError(503, "unavailable", "Service unavailable"),
      stream(agentStart, true),
      stream(end(3)),
    ]);
    expect(out.result).toEqual({ kind: "ended", outcome: "done" });
    expect(out.slept).toEqual([500, 1000, 500]);
    expect(out.opened.map((o) => o.after)).toEqual([1, 1, 2]);
  });

  it("a follower attaches from its cursor; an unknown run is gone, a refusal is final", async () => {
    const follower = await run(undefined, [stream(start + end(2))], new RunCursor("run-1"));
    expect(follower.result).toEqual({ kind: "ended", outcome: "done" });
    expect(follower.opened).toEqual([{ runId: "run-1", after: 0 }]);
    const gone = await run(undefined, [new ApiError(404, "not_found", "No such run")], new RunCursor("r"));
    expect(gone.result).toEqual({ kind: "gone" });
    const refused = await run(undefined, [new ApiError(401, "unauthorized", "Sign in")], new RunCursor("r"));
    expect(refused.result).toEqual({ kind: "lost", error: "Sign in" });
    expect(refused.slept).toEqual([]);
  });

  it("a stream without run_start has nothing to re-attach to: closed, or its error", async () => {
    const plain = 'event: agent_start\ndata: {"type":"agent_start"}\n\n';
    expect((await run(stream(plain), [])).result).toEqual({ kind: "closed" });
    await expect(run(stream(plain, true), [])).rejects.toThrow("network error");
  });

  it("stops with an AbortError when its signal aborts during a pause", async () => {
    const ctrl = new AbortController();
    const pending = followRun({
      cursor: new RunCursor(),
      first: stream(start, true),
      signal: ctrl.signal,
      open: async () => stream(end(2)),
      onEvent: () => {},
    });
    ctrl.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("reduceChat: run_start and run_end", () => {
  const user: AgentMessage = { role: "user", content: "hi", timestamp: 1 };

  it("run_start mode prompt marks the run live; mode retry is the Retry button's local_retry", () => {
    const s0 = { ...initialChatState([user]), errors: ["old"] };
    expect(reduceChat(s0, { type: "run_start", runId: "r", kind: "prompt", mode: "prompt" })).toEqual({
      ...s0,
      running: true,
    });
    expect(reduceChat(s0, { type: "run_start", runId: "r", kind: "prompt", mode: "retry" })).toEqual(
      reduceChat(s0, { type: "local_retry" }),
    );
  });

  it("the starting tab (optimistic prompt) and a follower (replay) end with the same messages in the same order", () => {
    const system = { role: "system", content: "You are pi.", timestamp: 2 } as unknown as AgentMessage;
    const stored: AgentMessage = { role: "user", content: "hi", timestamp: 3 };
    const events: ChatAction[] = [
      { type: "run_start", runId: "r", kind: "prompt", mode: "prompt" },
      { type: "agent_start" },
      { type: "message_start", message: system },
      { type: "message_end", message: system },
      { type: "message_start", message: stored },
      { type: "message_end", message: stored },
      { type: "run_end", outcome: "done" },
    ];
    let starting = reduceChat(initialChatState([user]), { type: "local_prompt", text: "hi", timestamp: 99 });
    let follower = initialChatState([user]);
    for (const e of events) {
      starting = reduceChat(starting, e);
      follower = reduceChat(follower, e);
    }
    expect(starting.messages).toEqual([user, system, stored]);
    expect(follower.messages).toEqual(starting.messages);
    // A system message given only by its message_end goes before the optimistic prompt too.
    let endOnly = reduceChat(initialChatState([]), { type: "local_prompt", text: "hi", timestamp: 99 });
    endOnly = reduceChat(endOnly, { type: "message_end", message: system });
    endOnly = reduceChat(endOnly, { type: "message_end", message: stored });
    expect(endOnly.messages).toEqual([system, stored]);
  });

  it("run_end closes the run like a closed stream; taken_over says so", () => {
    let s = reduceChat(initialChatState([user]), {
      type: "run_start",
      runId: "r",
      kind: "prompt",
      mode: "prompt",
    });
    s = reduceChat(s, { type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: {} });
    const done = reduceChat(s, { type: "run_end", outcome: "done" });
    expect(done).toEqual(reduceChat(s, { type: "stream_closed" }));
    expect(done.running).toBe(false);
    expect(done.tools.t1?.status).toBe("interrupted");
    expect(reduceChat(s, { type: "run_end", outcome: "taken_over" }).errors).toEqual([runTakenOverText]);
  });
});

describe("rememberRun / startedHere", () => {
  it("tells this tab's run (kept across a reload) from another tab's, per session", () => {
    const store = new Map<string, string>();
    const memory = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    };
    rememberRun(memory, "s1", "run-a");
    expect([
      startedHere(memory, "s1", "run-a"),
      startedHere(memory, "s1", "run-b"),
      startedHere(memory, "s2", "run-a"),
    ]).toEqual([true, false, false]);
    expect(startedHere(null, "s1", "run-a")).toBe(false);
    const refusing = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    };
    rememberRun(refusing, "s1", "run-a");
    expect(startedHere(refusing, "s1", "run-a")).toBe(false);
  });
});

describe("rememberSent", () => {
  it("claims a live run of the same mode sent from this tab before its id was seen, for SENT_CLAIM_MS", () => {
    const map = new Map<string, string>();
    const memory = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    rememberSent(memory, "s1", "bash", 1_000);
    expect(map.get("strata.run.s1")).toBe("sent:bash:1000");
    expect(startedHere(memory, "s1", "run-x", "bash", 1_000 + SENT_CLAIM_MS - 1)).toBe(true);
    expect(startedHere(memory, "s1", "run-x", "bash", 1_000 + SENT_CLAIM_MS)).toBe(false);
    expect(startedHere(memory, "s1", "run-x", "prompt", 2_000)).toBe(false);
    expect(startedHere(memory, "s1", "run-x", null, 2_000)).toBe(false);
    expect(startedHere(memory, "s2", "run-x", "bash", 2_000)).toBe(false);
    // The run's id, once seen, replaces the claim.
    rememberRun(memory, "s1", "run-x");
    expect(startedHere(memory, "s1", "run-x", "bash", 2_000)).toBe(true);
    expect(startedHere(memory, "s1", "run-y", "bash", 2_000)).toBe(false);
  });
});
