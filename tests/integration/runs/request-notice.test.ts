/**
 * The chat's request notice through a server-owned run (route handlers, Postgres, the mock provider): a session
 * whose history has an image goes on with a model without image input; the run's log has
 * `request_notice` with `summarizeTransformReport`'s exact line just before that turn's assistant `message_start`,
 * the same for a tab that attaches mid-answer (replay from seq 0) and in the stored log; a request with nothing
 * dropped has no notice.
 */
import { expect, it } from "vitest";
import { withMockStack } from "../../helpers/mock-stack";
import {
  newSession,
  prompt,
  reader,
  runEvents,
  runRow,
  storedEvents,
  until,
  type WireEvent,
} from "./helpers";

/** An 8x8 red PNG. */
const RED =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGO4o6GBFTEMLQkAe3tLAfuiUfAAAAAASUVORK5CYII=";
const NOTICE = { type: "request_notice", notices: ["1 image not sent: this model has no image input"] };

const stack = withMockStack({
  processEnv: true,
  extraEnv: {
    STRATA_MODELS: JSON.stringify([
      { provider: "anthropic", id: "claude-text-only", name: "Claude (text only)", input: ["text"] },
    ]),
  },
});

/** The events after `run_start` as `type[:role]`, deltas left out. */
const shape = (events: WireEvent[]) =>
  events
    .filter((e) => e.event !== "message_update")
    .map((e) => {
      const role = (e.data.message as { role?: string } | undefined)?.role;
      return role ? `${e.event}:${role}` : e.event;
    });

it("an image in the history, then a model without image input: the notice before that turn's answer", async () => {
  const session = await newSession(stack.scope);
  stack.mock.enqueue({ text: "A red square." }, { text: ["Only text", " here."], holdUntilReleased: "g" });
  const first = reader(
    await prompt(session.id, {
      text: "Describe it",
      images: [{ type: "image", data: RED, mimeType: "image/png" }],
    }),
  );
  await first.done;
  expect(first.events.filter((e) => e.event === "request_notice")).toEqual([]);

  const second = reader(await prompt(session.id, { text: "And now?", model: "anthropic/claude-text-only" }));
  await second.waitFor((e) => e.event === "message_update");
  const runId = second.events[0].data.runId as string;
  // A tab attaching mid-answer replays the log from its start: the notice is there.
  const attached = reader(await runEvents(session.id, runId, { query: "after=0" }));
  await attached.waitFor((e) => e.event === "message_update");
  stack.mock.release("g");
  await second.done;
  await attached.done;

  expect(shape(second.events)).toEqual([
    "run_start",
    "agent_start",
    "turn_start",
    "message_start:user",
    "message_end:user",
    "request_notice",
    "message_start:assistant",
    "message_end:assistant",
    "turn_end:assistant",
    "agent_end",
    "run_end",
  ]);
  expect(second.events.find((e) => e.event === "request_notice")?.data).toEqual(NOTICE);
  expect(attached.events).toEqual(second.events);
  await until(async () => (await runRow(stack.scope, runId)).outcome !== null);
  expect(await storedEvents(stack.scope, runId)).toEqual(second.events);

  // The request the notice is about: pi's placeholder in place of the image.
  const last = stack.mock.requests.filter((r) => r.path === "/v1/messages").at(-1)?.body as {
    model: string;
    messages: { role: string; content: unknown }[];
  };
  expect(last.model).toBe("claude-text-only");
  expect(last.messages[0].content).toEqual([
    { type: "text", text: "Describe it" },
    { type: "text", text: "(image omitted: model does not support images)" },
  ]);
});
