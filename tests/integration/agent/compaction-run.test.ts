/**
 * `compactSession` against the real Postgres and the mock provider: the summarization request the
 * provider receives (pi's system prompt, `<conversation>` framing, max tokens), the compaction entry
 * (the scripted summary plus the file lists), the next context, and the refusals (pending tool calls,
 * nothing to do, failed or truncated summaries store nothing).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "@/lib/agent/messages";
import {
  COMPACTION_CANCELLED,
  compactSession,
  resolveSessionModel,
  SummarizationError,
} from "@/lib/agent-session/compaction-run";
import { resolveModel } from "@/lib/llm/models";
import { emptyUsage } from "@/lib/llm/types";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { buildSummarizationPrompt, type CompactionSettings } from "@/lib/session/compaction/compaction";
import {
  COMPACTION_SUMMARY_PREFIX,
  convertToLlm,
  SUMMARIZATION_SYSTEM_PROMPT,
} from "@/lib/session/compaction/utils";
import { loadAllEntries, loadSessionContext } from "@/lib/session/context-load";
import { appendEntry, createSession, getSession, prepareSessionCompaction } from "@/lib/session/store";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack({ model: null });
let projectId: string;

/** Small `keepRecentTokens` so a short history has something to summarize. */
const SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 150 };

beforeAll(async () => {
  const actor = await getLocalActor(stack.scope);
  projectId = (
    await insertProject(stack.scope, { workspaceId: actor.workspaceId, name: "compact", source: null })
  ).id;
});

const model = () => resolveModel("anthropic/claude-sonnet-4-5", stack.env)!;
const user = (text: string): AgentMessage => ({
  role: "user",
  content: [{ type: "text", text }],
  timestamp: 1,
});
const assistant = (content: unknown[]): AgentMessage =>
  ({
    role: "assistant",
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: emptyUsage(),
    stopReason: content.some((b) => (b as { type: string }).type === "toolCall") ? "toolUse" : "stop",
    timestamp: 2,
  }) as AgentMessage;
const call = (id: string, name: string, path: string) => ({
  type: "toolCall",
  id,
  name,
  arguments: { path },
});
const result = (id: string, toolName: string, text: string): AgentMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName,
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 3,
});

/** A session with three turns: read src/a.ts, edit src/b.ts, then a long recent exchange. */
async function sessionWithHistory() {
  const session = await createSession(stack.scope, { projectId, cwd: "/p" });
  const add = (message: AgentMessage) => appendEntry(stack.scope, session.id, { type: "message", message });
  await appendEntry(stack.scope, session.id, {
    type: "model_change",
    provider: "anthropic",
    modelId: "claude-sonnet-4-5",
  });
  await add(user("Look at a.ts"));
  await add(assistant([call("toolu_1", "read", "src/a.ts")]));
  await add(result("toolu_1", "read", "export const a = 1;"));
  await add(assistant([{ type: "text", text: "a is 1." }]));
  await add(user("Now change b.ts"));
  await add(assistant([call("toolu_2", "edit", "src/b.ts")]));
  await add(result("toolu_2", "edit", "Edited src/b.ts"));
  await add(assistant([{ type: "text", text: "Changed." }]));
  await add(user(`Explain everything in detail ${"x".repeat(400)}`));
  await add(assistant([{ type: "text", text: `Here it is ${"y".repeat(400)}` }]));
  return session;
}

describe("compactSession", () => {
  it("summarizes with the session's model and stores the summary with the file lists", async () => {
    const session = await sessionWithHistory();
    const plan = await prepareSessionCompaction(stack.scope, session.id, SETTINGS);
    if (plan.status !== "ready") throw new Error(`plan ${plan.status}`);
    stack.mock.enqueue({ text: ["## Goal\n", "Tour the files."] });

    const m = await resolveSessionModel(stack.scope, session.id, stack.env);
    expect(m.id).toBe("claude-sonnet-4-5");
    const out = await compactSession({
      scope: stack.scope,
      sessionId: session.id,
      model: m,
      env: stack.env,
      settings: SETTINGS,
    });
    if (out.status !== "compacted") throw new Error(`status ${out.status}`);

    const summary =
      "## Goal\nTour the files.\n\n<read-files>\nsrc/a.ts\n</read-files>\n\n<modified-files>\nsrc/b.ts\n</modified-files>";
    expect(out.entry).toMatchObject({
      type: "compaction",
      summary,
      firstKeptEntryId: plan.preparation.firstKeptEntryId,
      tokensBefore: plan.preparation.tokensBefore,
      details: { readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] },
      parentId: plan.leafId,
    });
    expect((await getSession(stack.scope, session.id))!.leafId).toBe(out.entry.id);

    // The request: pi's system prompt, one user message with the <conversation> framing, 0.8 × reserve.
    const requests = stack.mock.requests.filter((r) => r.path === "/v1/messages");
    expect(requests).toHaveLength(1);
    const body = requests[0].body as {
      system: { type: string; text: string }[];
      messages: { role: string; content: { type: string; text: string }[] }[];
      max_tokens: number;
      tools?: unknown;
      thinking?: unknown;
    };
    expect(body.system.map((b) => b.text).join("")).toBe(SUMMARIZATION_SYSTEM_PROMPT);
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0].role).toBe("user");
    const prompt = body.messages[0].content.map((b) => b.text).join("");
    expect(prompt).toBe(buildSummarizationPrompt(plan.preparation.messagesToSummarize));
    expect(
      prompt.startsWith(
        '<conversation>\n[User]: Look at a.ts\n\n[Assistant tool calls]: read(path="src/a.ts")',
      ),
    ).toBe(true);
    expect(prompt).toContain("\n</conversation>\n\nThe messages above are a conversation to summarize.");
    expect(body.max_tokens).toBe(Math.floor(0.8 * SETTINGS.reserveTokens));
    expect(body.tools).toBeUndefined();
    expect(body.thinking).toBeUndefined();

    // The next context starts with the compaction summary, then the kept messages.
    const { messages } = await loadSessionContext(stack.scope, session.id);
    const visible = messages.filter((msg) => msg.role !== "system");
    expect(visible[0]).toMatchObject({ role: "compactionSummary", summary });
    const llm = convertToLlm(visible);
    expect(llm[0]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: `${COMPACTION_SUMMARY_PREFIX}${summary}\n</summary>` }],
    });
    const all = await loadAllEntries(stack.scope, session.id);
    const keptIndex = all.findIndex((e) => e.id === plan.preparation.firstKeptEntryId);
    expect(visible.length).toBe(1 + all.slice(keptIndex, -1).filter((e) => e.type === "message").length);
  });

  it("a second compaction updates the previous summary (<previous-summary>) with the focus appended", async () => {
    const session = await sessionWithHistory();
    stack.mock.enqueue({ text: "First summary." });
    await compactSession({
      scope: stack.scope,
      sessionId: session.id,
      model: model(),
      env: stack.env,
      settings: SETTINGS,
    });
    await appendEntry(stack.scope, session.id, {
      type: "message",
      message: user(`More work ${"z".repeat(400)}`),
    });
    await appendEntry(stack.scope, session.id, {
      type: "message",
      message: assistant([{ type: "text", text: `Done more ${"w".repeat(400)}` }]),
    });
    stack.mock.reset();
    stack.mock.enqueue({ text: "Second summary." });
    const out = await compactSession({
      scope: stack.scope,
      sessionId: session.id,
      model: model(),
      env: stack.env,
      settings: SETTINGS,
      focus: "the b.ts change",
    });
    expect(out.status).toBe("compacted");
    const body = stack.mock.requests[0].body as { messages: { content: { text: string }[] }[] };
    const prompt = body.messages[0].content.map((b) => b.text).join("");
    expect(prompt).toContain("\n</conversation>\n\n<previous-summary>\nFirst summary.");
    expect(prompt).toContain("The messages above are NEW conversation messages to incorporate");
    expect(prompt.endsWith("\n\nAdditional focus: the b.ts change")).toBe(true);
  });

  it("refuses while tool calls are unanswered, and when there is nothing to summarize", async () => {
    const empty = await createSession(stack.scope, { projectId, cwd: "/p" });
    expect(
      await compactSession({ scope: stack.scope, sessionId: empty.id, model: model(), env: stack.env }),
    ).toEqual({
      status: "nothing",
    });
    const session = await sessionWithHistory();
    await appendEntry(stack.scope, session.id, { type: "message", message: user("read c") });
    await appendEntry(stack.scope, session.id, {
      type: "message",
      message: assistant([call("toolu_9", "read", "c.ts")]),
    });
    expect(
      await compactSession({
        scope: stack.scope,
        sessionId: session.id,
        model: model(),
        env: stack.env,
        settings: SETTINGS,
      }),
    ).toEqual({
      status: "pending",
      toolCallIds: ["toolu_9"],
    });
    expect(stack.mock.requests).toHaveLength(0);
  });

  it("stores nothing when the summary fails, is cut at the token cap, or is cancelled (pi 8.9)", async () => {
    const session = await sessionWithHistory();
    const before = (await getSession(stack.scope, session.id))!.leafId;
    stack.mock.enqueue({ error: { status: 500, message: "boom" } });
    const failed = compactSession({
      scope: stack.scope,
      sessionId: session.id,
      model: model(),
      env: stack.env,
      settings: SETTINGS,
    });
    await expect(failed).rejects.toBeInstanceOf(SummarizationError);
    await expect(failed).rejects.toThrow(/^Summarization failed: 500 /);

    stack.mock.enqueue({ text: "cut", stopReason: "length" });
    await expect(
      compactSession({
        scope: stack.scope,
        sessionId: session.id,
        model: model(),
        env: stack.env,
        settings: SETTINGS,
      }),
    ).rejects.toThrow("Summarization failed: generation hit the token cap and the summary is incomplete");

    const abort = new AbortController();
    abort.abort();
    await expect(
      compactSession({
        scope: stack.scope,
        sessionId: session.id,
        model: model(),
        env: stack.env,
        settings: SETTINGS,
        signal: abort.signal,
      }),
    ).rejects.toThrow(COMPACTION_CANCELLED);

    expect((await getSession(stack.scope, session.id))!.leafId).toBe(before);
    expect((await loadAllEntries(stack.scope, session.id)).some((e) => e.type === "compaction")).toBe(false);
  });
});
