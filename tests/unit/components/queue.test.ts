import { describe, expect, it } from "vitest";
import { toAgentEvent } from "@/components/chat/events";
import {
  emptyQueue,
  type QueueAction,
  queuedMessages,
  reduceQueue,
  restoreDraft,
} from "@/components/chat/queue";
import { initialChatState, reduceChat } from "@/components/chat/reduce-events";

const run = (actions: QueueAction[]) => actions.reduce(reduceQueue, emptyQueue());
const shown = (actions: QueueAction[]) => queuedMessages(run(actions)).map((m) => `${m.kind}:${m.text}`);

describe("queue of a running agent", () => {
  it("shows a 202 answer at once, then the server's report replaces it", () => {
    const queued: QueueAction = {
      type: "local_queued",
      message: { id: "q1", kind: "steer", text: "Use tabs." },
      sentAt: 0,
    };
    expect(shown([queued])).toEqual(["steer:Use tabs."]);
    expect(
      shown([queued, { type: "queue_update", steering: ["Use tabs."], followUp: ["Then test."] }]),
    ).toEqual(["steer:Use tabs.", "followUp:Then test."]);
    // Delivered: the report no longer lists it.
    expect(
      shown([
        queued,
        { type: "queue_update", steering: ["Use tabs."], followUp: [] },
        { type: "queue_update", steering: [], followUp: [] },
      ]),
    ).toEqual([]);
  });

  it("does not add a 202 answer the stream already reported (and maybe delivered) after the request", () => {
    const q = run([
      { type: "queue_update", steering: ["Use tabs."], followUp: [] },
      { type: "queue_update", steering: [], followUp: [] },
      { type: "local_queued", message: { id: "q1", kind: "steer", text: "Use tabs." }, sentAt: 0 },
    ]);
    expect(queuedMessages(q)).toEqual([]);
  });

  it("lists steering messages before follow-ups, each in queue order", () => {
    expect(
      shown([
        { type: "local_queued", message: { id: "a", kind: "followUp", text: "F1" }, sentAt: 0 },
        { type: "local_queued", message: { id: "b", kind: "steer", text: "S1" }, sentAt: 0 },
        { type: "local_queued", message: { id: "c", kind: "followUp", text: "F2" }, sentAt: 0 },
      ]),
    ).toEqual(["steer:S1", "followUp:F1", "followUp:F2"]);
  });

  it("empties on queue_cleared and when the run's stream closes", () => {
    const q: QueueAction = {
      type: "local_queued",
      message: { id: "a", kind: "steer", text: "S" },
      sentAt: 0,
    };
    expect(shown([q, { type: "queue_cleared" }])).toEqual([]);
    let s = reduceChat(initialChatState(), { type: "local_prompt", text: "go", timestamp: 1 });
    s = reduceChat(s, { type: "queue_update", steering: ["S"], followUp: ["F"] });
    expect(queuedMessages(s.queue)).toHaveLength(2);
    s = reduceChat(s, { type: "stream_closed" });
    expect(queuedMessages(s.queue)).toEqual([]);
  });

  it("parses queue_update events", () => {
    expect(
      toAgentEvent("queue_update", '{"type":"queue_update","steering":["a"],"followUp":["b",3]}'),
    ).toEqual({
      type: "queue_update",
      steering: ["a"],
      followUp: ["b"],
    });
  });
});

describe("restoreDraft (after an abort)", () => {
  it("puts the undelivered texts first, then the draft, separated by blank lines", () => {
    expect(restoreDraft(["Steer text", "Follow text"], "draft")).toBe("Steer text\n\nFollow text\n\ndraft");
    expect(restoreDraft(["Only"], "")).toBe("Only");
    expect(restoreDraft([], "draft")).toBe("draft");
    expect(restoreDraft(["", "x"], "  ")).toBe("x");
  });
});
