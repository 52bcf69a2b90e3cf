/**
 * Images on a prompt through the real route handler, Postgres and the mock provider: pi's user message
 * `[{type:"text"}, ...images]` is stored and reaches Anthropic as a base64 image block and OpenAI Responses as an
 * `input_image` data URL; a model without image input gets pi's placeholder text (13.2); a bad image is refused
 * with 400 naming it, and nothing is stored.
 */
import { describe, expect, it } from "vitest";
import { POST as postPrompt } from "@/app/api/sessions/[id]/prompt/route";
import { readSseStream } from "@/components/chat/sse";
import type { AgentMessage } from "@/lib/agent/messages";
import { loadBranch } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import { asUser, signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

/** A 1x1 PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const image = { type: "image", data: PNG, mimeType: "image/png" };

const stack = withMockStack({
  provider: ["anthropic", "openai"],
  processEnv: true,
  extraEnv: {
    STRATA_MODELS: JSON.stringify([{ provider: "anthropic", id: "claude-text-only", input: ["text"] }]),
  },
});

async function newSession() {
  const actor = await signedIn.actor();
  return (await projectWithSession(stack.scope, { "a.txt": "alpha\n" }, { actor, name: "images" })).session;
}

async function prompt(id: string, body: Record<string, unknown>): Promise<Response> {
  return postPrompt(
    asUser(signedIn.user, `http://t/api/sessions/${id}/prompt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id }) },
  );
}

async function run(id: string, body: Record<string, unknown>): Promise<string[]> {
  const res = await prompt(id, body);
  expect(res.status).toBe(200);
  const events: string[] = [];
  await readSseStream(res.body as ReadableStream<Uint8Array>, (e) => {
    events.push(e.event);
  });
  return events;
}

async function storedUserContent(id: string): Promise<unknown> {
  const session = await getSession(stack.scope, id);
  const entries = await loadBranch(stack.scope, id, session?.leafId ?? null);
  const messages = entries.flatMap((e) => (e.type === "message" ? [e.message as AgentMessage] : []));
  const user = messages.find((m) => m.role === "user");
  return user?.role === "user" ? user.content : undefined;
}

const lastUser = (body: unknown, key: "messages" | "input") =>
  ((body as Record<string, { role?: string; content: unknown }[]>)[key] ?? [])
    .filter((m) => m.role === "user")
    .at(-1)?.content;

describe("images on a prompt", () => {
  it("are stored as pi's user content and reach Anthropic as base64 image blocks", async () => {
    stack.mock.enqueue({ text: "A red dot." });
    const session = await newSession();
    const events = await run(session.id, { text: "What is this?", images: [image] });
    expect(events).not.toContain("error");
    expect(await storedUserContent(session.id)).toEqual([{ type: "text", text: "What is this?" }, image]);
    const requests = stack.mock.requests.filter((r) => r.path === "/v1/messages");
    expect(requests).toHaveLength(1);
    expect(lastUser(requests[0].body, "messages")).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
    ]);
  });

  it("reach OpenAI Responses as input_image data URLs", async () => {
    stack.mock.enqueue({ text: "A red dot." });
    const session = await newSession();
    await run(session.id, { text: "And now?", images: [image], model: "openai/gpt-5" });
    const requests = stack.mock.requests.filter((r) => r.path === "/v1/responses");
    expect(requests).toHaveLength(1);
    expect(lastUser(requests[0].body, "input")).toEqual([
      { type: "input_text", text: "And now?" },
      // The AI SDK leaves out pi's `detail: "auto"` (the API default; docs/pi-differences.md).
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    ]);
  });

  it("become pi's placeholder text for a model without image input, and stay stored", async () => {
    stack.mock.enqueue({ text: "I cannot see it." });
    const session = await newSession();
    await run(session.id, { text: "Look", images: [image, image], model: "anthropic/claude-text-only" });
    expect(await storedUserContent(session.id)).toEqual([{ type: "text", text: "Look" }, image, image]);
    const requests = stack.mock.requests.filter((r) => r.path === "/v1/messages");
    expect(lastUser(requests[0].body, "messages")).toEqual([
      { type: "text", text: "Look" },
      { type: "text", text: "(image omitted: model does not support images)" },
    ]);
  });

  it("are refused with 400 naming the bad image; nothing is stored or sent", async () => {
    const session = await newSession();
    const res = await prompt(session.id, {
      text: "Look",
      images: [image, { type: "image", data: PNG, mimeType: "image/gif" }],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: "bad_request", message: "images: Image 2: its content is image/png, not image/gif." },
    });
    expect((await getSession(stack.scope, session.id))?.leafId).toBeNull();
    expect(stack.mock.requests).toHaveLength(0);
  });
});
