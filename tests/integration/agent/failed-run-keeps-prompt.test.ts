/**
 * A run that fails keeps the user's message (Strata issue 26, item 5): the prompt's user message is stored when it
 * ends, before the model request (pi's AgentSession persists each message at `message_end`), so a provider that
 * refuses the first request or a database that refuses the answer leaves the user's message in the session — and
 * the Retry button's run continues from it without a second user message. Real Postgres, the mock provider.
 */
import { describe, expect, it } from "vitest";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { createOwnedRun } from "@/lib/runs";
import { loadBranch } from "@/lib/session/context-load";
import { startPromptRun } from "@/lib/session/runs";
import { getSession } from "@/lib/session/store";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession } from "../../helpers/session-fixture";

const stack = withMockStack();

/** `text` (or the Retry button's run) on the session as a server-owned run: its outcome and its errors. */
async function ownedRun(sessionId: string, text: string, mode: "prompt" | "retry" = "prompt") {
  const s = new DbScope();
  const run = await startPromptRun(s, sessionId, "prompt", mode);
  const events: RunEvent[] = [];
  const owned = createOwnedRun({
    sessionId,
    runId: run.id,
    kind: "prompt",
    mode,
    work: ({ emit, signal, watched }) =>
      runPrompt({
        sessionId,
        text,
        retry: mode === "retry",
        env: stack.env,
        emit,
        signal,
        runId: run.id,
        scope: s,
        clientGone: () => !watched(),
      }),
  });
  owned.subscribe((logged) => events.push(logged.event as RunEvent));
  const outcome = await owned.start();
  return { outcome, errors: events.filter((e) => e.type === "error").map((e) => e.message) };
}

/** The session's branch: entry types, messages as `role: text` (an assistant's `[stopReason] errorMessage`). */
async function branchOf(sessionId: string): Promise<string[]> {
  const row = await getSession(stack.scope, sessionId);
  return (await loadBranch(stack.scope, sessionId, row?.leafId ?? null)).map((e) => {
    if (e.type !== "message") return e.type;
    const m = (e as unknown as { message: Record<string, unknown> }).message;
    if (m.role === "system") return "system";
    const content = m.content as string | { type: string; text?: string }[];
    const text = typeof content === "string" ? content : content.map((c) => c.text ?? "").join("");
    return m.stopReason === "error" ? `${m.role}: [error] ${m.errorMessage}` : `${m.role}: ${text}`;
  });
}

describe("a failed run keeps the user's message", () => {
  it("when the provider refuses the first request; Retry answers it without a second user message", async () => {
    const { session } = await projectWithSession(stack.scope, { "a.txt": "alpha\n" });
    stack.mock.enqueue({ error: { status: 401, message: "invalid x-api-key" } });

    expect(await ownedRun(session.id, "fix the bug")).toEqual({ outcome: "error", errors: [] });
    expect(await branchOf(session.id)).toEqual([
      "model_change",
      "thinking_level_change",
      "system",
      "user: fix the bug",
      "assistant: [error] 401 invalid x-api-key",
    ]);

    stack.mock.enqueue({ text: "Fixed." });
    expect(await ownedRun(session.id, "", "retry")).toEqual({ outcome: "done", errors: [] });
    expect(await branchOf(session.id)).toEqual([
      "model_change",
      "thinking_level_change",
      "system",
      "user: fix the bug",
      "assistant: [error] 401 invalid x-api-key",
      "assistant: Fixed.",
    ]);
  });

  it("when the database refuses the answer; Retry answers it without a second user message", async () => {
    const { session } = await projectWithSession(stack.scope, { "a.txt": "alpha\n" });
    // The database refuses every assistant message of this session (a trigger: a real Postgres error).
    const fn = `refuse_${session.id.replace(/-/g, "_")}`;
    await stack.scope.query(
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'refused by the test'; END $$`,
    );
    await stack.scope.query(
      `CREATE TRIGGER ${fn} BEFORE INSERT ON session_entries FOR EACH ROW
       WHEN (NEW.session_id = '${session.id}' AND NEW.entry::jsonb -> 'message' ->> 'role' = 'assistant')
       EXECUTE FUNCTION ${fn}()`,
    );
    stack.mock.enqueue({ text: "Lost answer." });
    try {
      expect(await ownedRun(session.id, "fix the bug")).toEqual({
        outcome: "error",
        errors: ["refused by the test"],
      });
    } finally {
      await stack.scope.query(`DROP TRIGGER ${fn} ON session_entries`);
      await stack.scope.query(`DROP FUNCTION ${fn}()`);
    }
    expect(await branchOf(session.id)).toEqual([
      "model_change",
      "thinking_level_change",
      "system",
      "user: fix the bug",
    ]);

    stack.mock.enqueue({ text: "Fixed." });
    expect(await ownedRun(session.id, "", "retry")).toEqual({ outcome: "done", errors: [] });
    expect(await branchOf(session.id)).toEqual([
      "model_change",
      "thinking_level_change",
      "system",
      "user: fix the bug",
      "assistant: Fixed.",
    ]);
    // The retry's request carried the user's message once.
    const sent = stack.mock.requests.map(
      (r) => (r.body as { messages: { role: string }[] }).messages.filter((m) => m.role === "user").length,
    );
    expect(sent).toEqual([1, 1]);
  });
});
