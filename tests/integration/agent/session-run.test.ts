/**
 * One prompt through `runPrompt` against the real Postgres and the mock provider: the entries written,
 * the system prompt sent, the file edited in the VFS, and the checkpoint commit on the session ref.
 */
import { describe, expect, it } from "vitest";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import type { ExtensionModule } from "@/lib/extensions/types";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject } from "@/lib/projects/projects";
import { loadBranch } from "@/lib/session/context-load";
import { createSession, getSession } from "@/lib/session/store";
import { commitAll, initRepository, log, readTextAt, resolveRef } from "@/lib/vfs/git";
import { openSessionVfs, openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack();

async function projectWithFiles(files: Record<string, string>) {
  const actor = await getLocalActor(stack.scope);
  const project = await insertProject(stack.scope, {
    workspaceId: actor.workspaceId,
    name: "demo",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  await initRepository(vfs, project.rootPath);
  for (const [p, c] of Object.entries(files)) await vfs.writeFile(`${project.rootPath}/${p}`, c);
  await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
  await vfs.flush();
  await s.release();
  const session = await createSession(stack.scope, { projectId: project.id, cwd: project.rootPath });
  return { actor, project, session };
}

/** A session with two long prompts answered (about 50,000 tokens of history): compaction has something to cut. */
async function sessionWithLongHistory() {
  const { session } = await projectWithFiles({ "a.txt": "x" });
  stack.mock.enqueue({ text: "noted" }, { text: "noted again" });
  for (const word of ["long ", "more "])
    await runPrompt({
      sessionId: session.id,
      text: word.repeat(20_000),
      env: stack.env,
      emit: async () => {},
    });
  return session;
}

describe("runPrompt", () => {
  it("reads, edits, answers; persists every message and checkpoints the edit", async () => {
    const { project, session } = await projectWithFiles({
      "AGENTS.md": "Use tabs.\n",
      "src/a.ts": "export const a = 1;\n",
    });
    stack.mock.enqueue(
      { toolCalls: [{ id: "toolu_1", name: "read", input: { path: "src/a.ts" } }] },
      {
        toolCalls: [
          {
            id: "toolu_2",
            name: "edit",
            input: { path: "src/a.ts", edits: [{ oldText: "= 1", newText: "= 2" }] },
          },
        ],
      },
      { text: ["Done", "."] },
    );
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "bump a",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });

    expect(events.filter((e) => e.type !== "message_update").map((e) => e.type)).toEqual([
      "agent_start",
      "turn_start",
      "message_start",
      "message_end", // system
      "message_start",
      "message_end", // user
      "message_start",
      "message_end", // assistant: read
      "tool_execution_start",
      "tool_execution_end",
      "message_start",
      "message_end", // toolResult
      "turn_end",
      "turn_start",
      "message_start",
      "message_end", // assistant: edit
      "tool_execution_start",
      "tool_execution_end",
      "message_start",
      "message_end",
      "files_changed",
      "turn_end",
      "turn_start",
      "message_start",
      "message_end", // assistant: text
      "turn_end",
      "agent_end",
    ]);
    const changed = events.find((e) => e.type === "files_changed");
    expect(changed).toMatchObject({ type: "files_changed", paths: ["src/a.ts"] });

    const stored = await getSession(stack.scope, session.id);
    const branch = await loadBranch(stack.scope, session.id, stored!.leafId);
    expect(
      branch.map((e) =>
        e.type === "message" ? `message:${(e as { message: { role: string } }).message.role}` : e.type,
      ),
    ).toEqual([
      "model_change",
      "thinking_level_change",
      "message:system",
      "message:user",
      "message:assistant",
      "message:toolResult",
      "message:assistant",
      "message:toolResult",
      "message:assistant",
    ]);
    expect(branch[0]).toMatchObject({
      type: "model_change",
      provider: "anthropic",
      modelId: "claude-sonnet-4-5",
      parentId: null,
    });
    for (let i = 1; i < branch.length; i++) expect(branch[i].parentId).toBe(branch[i - 1].id);
    for (const e of branch) expect(e.id).toMatch(/^[0-9a-f]{8}$/);
    const system = (
      branch[2] as unknown as {
        message: { sections: Record<string, string>; toolsAdded: { name: string }[]; content: string };
      }
    ).message;
    expect(Object.keys(system.sections)).toEqual([
      "preamble",
      "tools",
      "rules",
      "docs",
      "project_context",
      "cwd",
    ]);
    expect(system.content).toBe("");
    expect(system.toolsAdded.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
    expect(system.sections.project_context).toBe(
      `<project_context>\nProject-specific instructions and guidelines:\n\n<project_instructions path="${project.rootPath}/AGENTS.md">\nUse tabs.\n\n</project_instructions>\n</project_context>`,
    );
    expect(system.sections.cwd).toBe(`<cwd>\n${project.rootPath}\n</cwd>`);
    const last = (
      branch[8] as unknown as { message: { content: { type: string; text: string }[]; stopReason: string } }
    ).message;
    expect(last.stopReason).toBe("stop");
    expect(last.content).toEqual([{ type: "text", text: "Done." }]);

    const s = new DbScope();
    const { vfs } = openSessionVfs(project, session.id, s);
    expect(await vfs.readText(`${project.rootPath}/src/a.ts`)).toBe("export const a = 2;\n");
    const ref = `refs/heads/strata/session-${session.id}`;
    const tip = await resolveRef(vfs, project.rootPath, ref);
    expect(tip).toMatch(/^[0-9a-f]{40}$/);
    expect(await readTextAt(vfs, project.rootPath, tip!, "src/a.ts")).toBe("export const a = 2;\n");
    const history = await log(vfs, project.rootPath, ref);
    expect(history.map((c) => c.message.trim())).toEqual(["Strata checkpoint: 1 file changed", "init"]);
    await s.release();

    const requests = stack.mock.requests.filter((r) => r.path === "/v1/messages");
    expect(requests).toHaveLength(3);
    const body = requests[0].body as { system: { text: string }[]; tools: { name: string }[] };
    expect(body.system.map((b) => b.text).join("")).toContain(
      "You are an expert coding assistant operating inside Strata",
    );
    expect(body.tools.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
  });

  it("titles the session with its first prompt, a pasted key redacted; the second prompt changes nothing", async () => {
    const { session } = await projectWithFiles({ "a.txt": "x" });
    stack.mock.enqueue({ text: "one" }, { text: "two" });
    const first = "call   the API with ANTHROPIC_API_KEY=sk-ant-api03-Zx8kQ2mN5pL9wR3tY6aB1cD4 please";
    await runPrompt({ sessionId: session.id, text: first, env: stack.env, emit: async () => {} });
    await runPrompt({ sessionId: session.id, text: "second", env: stack.env, emit: async () => {} });
    expect((await getSession(stack.scope, session.id))?.title).toBe(
      "call the API with ANTHROPIC_API_KEY=[redacted] please",
    );
  });

  it("adds no system message on a second prompt when nothing changed", async () => {
    const { session } = await projectWithFiles({ "a.txt": "x" });
    stack.mock.enqueue({ text: "one" }, { text: "two" });
    await runPrompt({ sessionId: session.id, text: "first", env: stack.env, emit: async () => {} });
    await runPrompt({ sessionId: session.id, text: "second", env: stack.env, emit: async () => {} });
    const stored = await getSession(stack.scope, session.id);
    const roles = (await loadBranch(stack.scope, session.id, stored!.leafId))
      .filter((e) => e.type === "message")
      .map((e) => (e as unknown as { message: { role: string } }).message.role);
    expect(roles).toEqual(["system", "user", "assistant", "user", "assistant"]);
  });

  it("stores an aborted assistant message with its partial text and error", async () => {
    const { session } = await projectWithFiles({ "a.txt": "x" });
    stack.mock.enqueue({ text: ["partial ", "rest"], holdUntilReleased: "gate" });
    const abort = new AbortController();
    const run = runPrompt({
      sessionId: session.id,
      text: "go",
      env: stack.env,
      signal: abort.signal,
      emit: async (e) => {
        // After the first text delta (the mock then holds the stream until released).
        if (e.type === "message_update" && e.assistantMessageEvent.type === "text_delta") abort.abort();
      },
    });
    await run;
    const stored = await getSession(stack.scope, session.id);
    const last = (await loadBranch(stack.scope, session.id, stored!.leafId)).at(-1) as unknown as {
      message: { role: string; stopReason: string; errorMessage: string; content: { text: string }[] };
    };
    expect(last.message.role).toBe("assistant");
    expect(last.message.stopReason).toBe("aborted");
    expect(last.message.content).toEqual([{ type: "text", text: "partial " }]);
    expect(last.message.errorMessage).toBe("Request was aborted");
  });

  it("says how to configure a model when none is", async () => {
    const { session } = await projectWithFiles({ "a.txt": "x" });
    const events: RunEvent[] = [];
    await runPrompt({ sessionId: session.id, text: "hi", env: {}, emit: async (e) => void events.push(e) });
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe("error");
    expect((events[0] as { message: string }).message).toMatch(
      /^No model is configured\. Strata calls models from the server/,
    );
  });

  it("compacts and retries once when the provider reports a context overflow", async () => {
    const session = await sessionWithLongHistory();
    stack.mock.enqueue(
      { error: { status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } },
      { text: "## Goal\nSummarised." },
      { text: "Recovered." },
    );
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "next",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(events.filter((e) => e.type.startsWith("auto_compaction"))).toEqual([
      { type: "auto_compaction_start", reason: "overflow" },
      { type: "auto_compaction_end", reason: "overflow", summary: "## Goal\nSummarised." },
    ]);
    const stored = await getSession(stack.scope, session.id);
    const tail = (await loadBranch(stack.scope, session.id, stored!.leafId)).slice(-4).map((e) => {
      if (e.type !== "message") return e.type;
      const m = (e as unknown as { message: { role: string; stopReason?: string } }).message;
      return m.stopReason ? `${m.role}:${m.stopReason}` : m.role;
    });
    expect(tail).toEqual(
      ["message", "assistant:error", "compaction", "assistant:stop"].map((x, i) => (i === 0 ? "user" : x)),
    );
    const retry = stack.mock.requests.filter((r) => r.path === "/v1/messages").at(-1)!.body as {
      messages: { role: string; content: { type: string; text?: string }[] }[];
    };
    expect(retry.messages[0].content[0].text).toMatch(
      /^The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\nSummarised\./,
    );
  });

  it("/compact [focus] summarises with the session's model and runs no turn", async () => {
    const session = await sessionWithLongHistory();
    stack.mock.enqueue({ text: "## Goal\nManual." });
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "/compact keep the file names",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(events).toEqual([
      { type: "compaction_start", reason: "manual" },
      { type: "compaction_end", reason: "manual", summary: "## Goal\nManual." },
    ]);
    const request = stack.mock.requests.filter((r) => r.path === "/v1/messages").at(-1)!.body as {
      messages: { content: { text: string }[] }[];
    };
    expect(request.messages[0].content[0].text.endsWith("\n\nAdditional focus: keep the file names")).toBe(
      true,
    );
    const stored = await getSession(stack.scope, session.id);
    expect((await loadBranch(stack.scope, session.id, stored!.leafId)).at(-1)!.type).toBe("compaction");
  });

  it("extensions registered in code shape a real run: command, input, before_agent_start, context, payload", async () => {
    const { session } = await projectWithFiles({ "a.txt": "x" });
    const seen: string[] = [];
    const extension: ExtensionModule = {
      path: "test:shaper",
      setup(api) {
        api.registerCommand("hello", { handler: (args) => void seen.push(`hello ${args}`) });
        api.on("input", (event) => ({ action: "transform", text: event.text.toUpperCase() }));
        api.on("before_agent_start", () => ({
          message: { customType: "note", content: "from hook", display: true },
          systemPrompt: "FORCED PROMPT",
        }));
        api.on("context", (event) => {
          const last = event.messages.at(-1);
          if (last?.role === "custom" && typeof last.content === "string") last.content += " [ctx]";
        });
        api.on("before_provider_request", (event) => ({
          ...(event.payload as object),
          metadata: { user_id: "strata-test" },
        }));
      },
    };
    const failing: ExtensionModule = {
      path: "test:failing",
      setup(api) {
        api.on("context", () => {
          throw new Error("boom");
        });
      },
    };
    const events: RunEvent[] = [];
    const run = (text: string) =>
      runPrompt({
        sessionId: session.id,
        text,
        env: stack.env,
        emit: async (e) => void events.push(e),
        extensions: [extension, failing],
      });
    await run("/hello world");
    expect(seen).toEqual(["hello world"]);
    expect(stack.mock.requests).toHaveLength(0);

    stack.mock.enqueue({ text: "ok" });
    await run("shout this");
    const body = stack.mock.requests[0].body as {
      system: { text: string }[];
      messages: { role: string; content: { text: string }[] }[];
      metadata: unknown;
    };
    expect(body.system.map((b) => b.text)).toEqual(["FORCED PROMPT"]);
    expect(body.messages.map((m) => [m.role, m.content.map((c) => c.text)])).toEqual([
      ["user", ["SHOUT THIS", "from hook [ctx]"]],
    ]);
    expect(body.metadata).toEqual({ user_id: "strata-test" });
    expect(events.filter((e) => e.type === "extension_error")).toEqual([
      { type: "extension_error", extensionPath: "test:failing", event: "context", error: "boom" },
    ]);
    // Stored: the real system patch (not the forced prompt), the transformed text, the hook's message unchanged.
    const stored = await getSession(stack.scope, session.id);
    const branch = await loadBranch(stack.scope, session.id, stored!.leafId);
    const messages: { role: string; content?: unknown }[] = branch.map((e) =>
      e.type === "message"
        ? (e as { message: { role: string; content: unknown } }).message
        : e.type === "custom_message"
          ? { role: `custom_message:${(e as { content: string }).content}` }
          : { role: e.type },
    );
    expect(messages.map((m) => m.role)).toEqual([
      "model_change",
      "thinking_level_change",
      "system",
      "user",
      "custom_message:from hook",
      "assistant",
    ]);
    expect(messages[3].content).toEqual([{ type: "text", text: "SHOUT THIS" }]);
    expect(JSON.stringify(messages[2])).not.toContain("FORCED PROMPT");
  });
});
