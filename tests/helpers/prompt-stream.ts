/** Drive the prompt route handler in-process and read its whole SSE answer. */
import { expect } from "vitest";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { readSseStream } from "@/components/chat/sse";
import { asUser } from "./auth";

/** A parsed SSE event of a run: its `event` name and its JSON `data`. */
export interface RunStreamEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * POST `text` to `/api/sessions/:id/prompt` as `user` (signed in, tests/helpers/auth.ts; expecting 200) and read the SSE stream to its end; `onEvent` may act
 * on an event (e.g. start an outage) before the next one is read. `text` may be the route's body `{ text, model }`
 * (the chat sends the model it shows).
 * @returns every event in order.
 */
export async function promptEvents(
  user: { cookie: string },
  sessionId: string,
  text: string | { text: string; model?: string },
  onEvent: (type: string) => void = () => {},
): Promise<RunStreamEvent[]> {
  const res = await postPrompt(
    asUser(user, `http://127.0.0.1/api/sessions/${sessionId}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(typeof text === "string" ? { text } : text),
    }),
    { params: Promise.resolve({ id: sessionId }) },
  );
  expect(res.status).toBe(200);
  const events: RunStreamEvent[] = [];
  await readSseStream(res.body as ReadableStream<Uint8Array>, (e) => {
    events.push({ type: e.event, data: JSON.parse(e.data) });
    onEvent(e.event);
  });
  return events;
}
