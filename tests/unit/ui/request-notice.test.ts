/**
 * The chat's request notice: `request_notice` parsed from the wire, held until the answer it precedes starts, shown
 * above that answer (also after a reset to the stored messages, which keep its timestamp); and the run's
 * `withRequestNotice`, which emits it before the call's events only when the summary has lines.
 */
import { describe, expect, it } from "vitest";
import { toAgentEvent } from "@/components/chat/events";
import {
  type ChatAction,
  type ChatState,
  initialChatState,
  noticesFor,
  reduceChat,
} from "@/components/chat/reduce-events";
import type { AssistantStreamEvent } from "@/lib/agent/types";
import { type RequestNoticeEvent, withRequestNotice } from "@/lib/agent-session/request-notice";
import { type AssistantMessage, emptyUsage, type UserMessage } from "@/lib/llm/types";

const run = (actions: ChatAction[], start: ChatState = initialChatState()) =>
  actions.reduce(reduceChat, start);
const answer = (timestamp: number, text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-text-only",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp,
});
const user: UserMessage = { role: "user", content: "And now?", timestamp: 1 };
const LINE = "2 images not sent: this model has no image input";

describe("request_notice in the chat", () => {
  it("parses from the wire, keeping only string lines", () => {
    expect(
      toAgentEvent("request_notice", JSON.stringify({ type: "request_notice", notices: [LINE, 3] })),
    ).toEqual({ type: "request_notice", notices: [LINE] });
    expect(toAgentEvent("request_notice", "{}")).toEqual({ type: "request_notice", notices: [] });
  });

  it("goes above the answer whose request it describes, not above other messages", () => {
    const a = answer(10, "Only text.");
    const state = run([
      { type: "message_start", message: user },
      { type: "message_end", message: user },
      { type: "request_notice", notices: [LINE, "thinking from another model sent as text"] },
    ]);
    expect(state.notices).toEqual({
      byTimestamp: {},
      pending: [LINE, "thinking from another model sent as text"],
    });
    const after = run(
      [
        { type: "message_start", message: a },
        { type: "message_end", message: a },
      ],
      state,
    );
    expect(after.notices.pending).toEqual([]);
    expect(after.messages.map((m) => noticesFor(after.notices, m))).toEqual([
      [],
      [LINE, "thinking from another model sent as text"],
    ]);
    // A later answer without a notice shows none.
    const b = answer(20, "More.");
    const later = run([{ type: "message_start", message: b }], after);
    expect(noticesFor(later.notices, b)).toEqual([]);

    // A reset to the stored messages keeps the notice of an answer it keeps; one to other messages drops it.
    const reset = run([{ type: "reset", messages: [user, a] }], later);
    expect(noticesFor(reset.notices, a)).toEqual([LINE, "thinking from another model sent as text"]);
    expect(run([{ type: "reset", messages: [] }], later).notices).toEqual({ byTimestamp: {}, pending: [] });
  });

  it("an empty notice changes nothing; a request that never answered takes its notice with it", () => {
    const start = initialChatState([user]);
    expect(run([{ type: "request_notice", notices: [] }], start)).toBe(start);
    const closed = run([{ type: "request_notice", notices: [LINE] }, { type: "stream_closed" }], start);
    expect(closed.notices).toEqual({ byTimestamp: {}, pending: [] });
  });
});

describe("withRequestNotice", () => {
  const events: AssistantStreamEvent[] = [{ type: "start", partial: answer(1, "") }];
  async function drain(summary: string[]) {
    const log: string[] = [];
    const emitted: RequestNoticeEvent[] = [];
    const stream = withRequestNotice(
      (report) => {
        report.changes.push({
          kind: "image_replaced",
          reason: "this model has no image input",
          messageIndex: 0,
        });
        log.push("start");
        return (async function* () {
          for (const e of events) {
            log.push(`event:${e.type}`);
            yield e;
          }
        })();
      },
      (report) => {
        log.push(`summarize:${report.changes.length}`);
        return summary;
      },
      async (event) => {
        log.push("emit");
        emitted.push(event);
      },
    );
    for await (const e of stream) log.push(`yield:${e.type}`);
    return { log, emitted };
  }

  it("emits the summary of the call's filled report before the call's first event", async () => {
    expect(await drain([LINE])).toEqual({
      log: ["start", "summarize:1", "emit", "event:start", "yield:start"],
      emitted: [{ type: "request_notice", notices: [LINE] }],
    });
  });

  it("emits nothing when the summary is empty", async () => {
    expect(await drain([])).toEqual({
      log: ["start", "summarize:1", "event:start", "yield:start"],
      emitted: [],
    });
  });
});
