/**
 * Rows stored before import checks existed (a content array holding null, non-string text, a tool call with null
 * arguments, a context edit replacing content with null parts): the session still opens (GET session, the tree),
 * the chat renders it, and a prompt runs against the mock provider with the broken parts left out.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GET as getSessionRoute } from "@/app/api/sessions/[id]/route";
import { GET as getTreeRoute } from "@/app/api/sessions/[id]/tree/route";
import { MessageList } from "@/components/chat/message-list";
import { initialChatState } from "@/components/chat/reduce-events";
import type { AgentMessage } from "@/lib/agent/messages";
import { runPrompt } from "@/lib/agent-session/session-run";
import { asUser, signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const stack = withMockStack();

const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** A session whose rows hold broken content, inserted as an older Strata stored them (no checks). */
async function brokenSession() {
  const actor = await signedIn.actor();
  const { session } = await projectWithSession(
    stack.scope,
    { "a.txt": "alpha\n" },
    { actor, name: "broken" },
  );
  const t = "2026-01-01T09:00:00.000Z";
  const rows = [
    {
      type: "message",
      id: "b1",
      parentId: null,
      timestamp: t,
      message: { role: "user", content: [null, { type: "text", text: "first question" }], timestamp: 1 },
    },
    {
      type: "message",
      id: "b2",
      parentId: "b1",
      timestamp: t,
      message: {
        role: "assistant",
        content: [
          null,
          { type: "text", text: 42 },
          { type: "text", text: "an answer" },
          { type: "thinking", thinking: null },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: "stop",
        timestamp: 2,
      },
    },
    {
      type: "message",
      id: "b3",
      parentId: "b2",
      timestamp: t,
      message: { role: "user", content: [{ type: "text", text: "second" }, null], timestamp: 3 },
    },
    {
      type: "context_edit",
      id: "b4",
      parentId: "b3",
      timestamp: t,
      targetId: "b3",
      replacement: { content: [null, { type: "text", text: "second, edited" }] },
    },
    {
      type: "custom_message",
      id: "b5",
      parentId: "b4",
      timestamp: t,
      customType: "note",
      content: [null],
      display: true,
    },
  ];
  for (const row of rows)
    await stack.scope.query(
      "INSERT INTO session_entries (session_id, id, parent_id, type, entry) VALUES ($1, $2, $3, $4, $5::json)",
      [session.id, row.id, row.parentId, row.type, JSON.stringify(row)],
    );
  await stack.scope.query("UPDATE sessions SET leaf_id = 'b5' WHERE id = $1", [session.id]);
  return session;
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });
const EXPECTED_CONTENT = [
  [{ type: "text", text: "first question" }],
  [{ type: "text", text: "an answer" }],
  [{ type: "text", text: "second, edited" }],
  [],
];

describe("stored entries with broken content", () => {
  it("GET session and the tree answer 200 with the broken parts left out; the chat renders them", async () => {
    const session = await brokenSession();
    const res = await getSessionRoute(asUser(signedIn.user, "http://strata.test/"), params(session.id));
    expect(res.status).toBe(200);
    const { messages, repairs } = (await res.json()) as {
      messages: AgentMessage[];
      repairs: { entryId: string; message: string }[];
    };
    expect(messages.map((m) => (m as { content: unknown }).content)).toEqual(EXPECTED_CONTENT);
    expect(repairs).toEqual([
      { entryId: "b1", message: "message.content[0] is null; dropped" },
      { entryId: "b2", message: "message.content[0] is null; dropped" },
      { entryId: "b2", message: 'message.content[1] (text) has a number as "text"; dropped' },
      { entryId: "b2", message: 'message.content[3] (thinking) has null as "thinking"; dropped' },
      { entryId: "b3", message: "message.content[1] is null; dropped" },
      { entryId: "b4", message: "replacement.content[0] is null; dropped" },
      { entryId: "b5", message: "content[0] is null; dropped" },
    ]);
    const tree = await getTreeRoute(asUser(signedIn.user, "http://strata.test/"), params(session.id));
    expect(tree.status).toBe(200);
    const { nodes } = (await tree.json()) as { nodes: { id: string; preview: string }[] };
    expect(nodes.map((n) => [n.id, n.preview])).toEqual([
      ["b1", "first question"],
      ["b2", "an answer"],
      ["b3", "second"],
      ["b4", "Edited b3"],
      ["b5", ""],
    ]);
    const html = renderToStaticMarkup(createElement(MessageList, { state: initialChatState(messages) }));
    expect(html).toContain("first question");
    expect(html).toContain("an answer");
    expect(html).toContain("second, edited");
  });

  it("a prompt runs on it: the model gets the repaired history, and the new turn is stored", async () => {
    const session = await brokenSession();
    stack.mock.enqueue({ text: "third answer" });
    await runPrompt({
      sessionId: session.id,
      text: "third",
      env: stack.env,
      emit: async () => {},
    });
    expect(stack.mock.requests).toHaveLength(1);
    const sent = stack.mock.requests[0].body as { messages: { role: string; content: unknown }[] };
    // The empty custom message is dropped and consecutive user turns are merged by the provider mapping.
    expect(sent.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "first question" }] },
      { role: "assistant", content: [{ type: "text", text: "an answer" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "second, edited" },
          { type: "text", text: "third" },
        ],
      },
    ]);
    const res = await getSessionRoute(asUser(signedIn.user, "http://strata.test/"), params(session.id));
    const { messages } = (await res.json()) as { messages: AgentMessage[] };
    expect(messages.slice(-2).map((m) => [m.role, (m as { content: unknown }).content])).toEqual([
      ["user", [{ type: "text", text: "third" }]],
      ["assistant", [{ type: "text", text: "third answer" }]],
    ]);
  });
});
