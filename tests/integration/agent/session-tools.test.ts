/**
 * The session runtime's pi actions against the real Postgres and the mock provider: `setActiveToolsByName` from
 * the IDE's tool toggles (lib/agent-session/session-tools.ts) and from an extension's `setActiveTools`, and an
 * extension's `sendMessage` with `deliverAs: "nextTurn"` (pi 3.27–3.28, 6.4, 6.8).
 */
import { describe, expect, it } from "vitest";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { getSessionTools, setSessionTools, ToolsChangeBusyError } from "@/lib/agent-session/session-tools";
import { DbScope } from "@/lib/db/client";
import { RUNTIME_NOT_INITIALIZED_ERROR } from "@/lib/extensions";
import type { ExtensionModule } from "@/lib/extensions/types";
import { previewStoredSession } from "@/lib/inspector/session-preview";
import { getLocalActor } from "@/lib/projects/identity";
import { getProject, insertProject } from "@/lib/projects/projects";
import { loadBranch } from "@/lib/session/context-load";
import type { SessionEntry } from "@/lib/session/entries";
import { finishRun, startRun } from "@/lib/session/runs";
import { createSession, getSession } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";

const stack = withMockStack();

async function newSession() {
  const actor = await getLocalActor(stack.scope);
  const project = await insertProject(stack.scope, {
    workspaceId: actor.workspaceId,
    name: "demo",
    source: null,
  });
  const s = new DbScope();
  const { vfs } = openWorkspaceVfs(actor.workspaceId, s);
  await vfs.writeFile(`${project.rootPath}/README.md`, "# Demo\n");
  await vfs.flush();
  await s.release();
  return createSession(stack.scope, { projectId: project.id, cwd: project.rootPath });
}

/** The branch as `role` / entry-type labels (custom messages as `custom:<text>`). */
async function branchLabels(sessionId: string): Promise<string[]> {
  const stored = await getSession(stack.scope, sessionId);
  return (await loadBranch(stack.scope, sessionId, stored!.leafId)).map((e: SessionEntry) =>
    e.type === "message"
      ? (e as unknown as { message: { role: string } }).message.role
      : e.type === "custom_message"
        ? `custom:${(e as unknown as { content: string }).content}`
        : e.type,
  );
}

async function lastSystem(sessionId: string) {
  const stored = await getSession(stack.scope, sessionId);
  const branch = await loadBranch(stack.scope, sessionId, stored!.leafId);
  const systems = branch.filter(
    (e) => e.type === "message" && (e as unknown as { message: { role: string } }).message.role === "system",
  );
  return (systems.at(-1) as unknown as { message: Record<string, unknown> }).message;
}

const READ_ONLY_SECTIONS = {
  tools:
    "<tools>\n- read: Read file contents\n\nIn addition to the tools above, you may have access to other custom tools depending on the project.\n</tools>",
  rules:
    "<rules>\n- Use read to examine files instead of cat or sed.\n- Be concise in your responses\n- Show file paths clearly when working with files\n</rules>",
};

const requestTools = (i: number) =>
  (stack.mock.requests[i].body as { tools?: { name: string }[] }).tools?.map((t) => t.name);

describe("the IDE's tool toggles (setSessionTools)", () => {
  it("pi 3.28: turning bash, edit and write off records the patch now; the next prompt declares read only and adds no patch", async () => {
    const session = await newSession();
    stack.mock.enqueue({ text: "one" }, { text: "two" });
    await runPrompt({ sessionId: session.id, text: "first", env: stack.env, emit: async () => {} });
    expect(requestTools(0)).toEqual(["read", "bash", "edit", "write"]);

    const out = await setSessionTools(stack.scope, session.id, ["read"], { env: stack.env });
    expect(out.patch).toEqual({
      role: "system",
      content: "",
      sections: READ_ONLY_SECTIONS,
      toolsRemoved: [{ name: "bash" }, { name: "edit" }, { name: "write" }],
      timestamp: expect.any(Number),
    });
    expect(out.active).toEqual(["read"]);
    expect(out.tools.map((t) => `${t.name}:${t.active}`)).toEqual([
      "read:true",
      "bash:false",
      "edit:false",
      "write:false",
      "grep:false",
      "find:false",
      "ls:false",
    ]);
    // Unchanged again: nothing written.
    expect(
      (await setSessionTools(stack.scope, session.id, ["read", "read", "nope"], { env: stack.env })).patch,
    ).toBeUndefined();

    // The preview of the next prompt declares what the run then sends (it restores the branch's tools too).
    const project = await getProject(stack.scope, session.projectId);
    const preview = await previewStoredSession(stack.scope, {
      session: (await getSession(stack.scope, session.id))!,
      project: project!,
      userId: (await getLocalActor(stack.scope)).userId,
      text: "second",
      env: stack.env,
    });
    expect(
      ((preview.payload?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((t) => t.name),
    ).toEqual(["read"]);
    await runPrompt({ sessionId: session.id, text: "second", env: stack.env, emit: async () => {} });
    expect(requestTools(1)).toEqual(["read"]);
    expect(await branchLabels(session.id)).toEqual([
      "model_change",
      "thinking_level_change",
      "system",
      "user",
      "assistant",
      "system",
      "user",
      "assistant",
    ]);
    expect((await getSessionTools(stack.scope, session.id)).active).toEqual(["read"]);

    const wider = await setSessionTools(stack.scope, session.id, ["read", "grep"], { env: stack.env });
    expect(wider.patch?.toolsAdded?.map((t) => t.name)).toEqual(["grep"]);
    expect(wider.patch?.toolsRemoved).toBeUndefined();
  });

  it("on a session without entries: model_change and thinking_level_change first (pi 6.9), then the full patch", async () => {
    const session = await newSession();
    const out = await setSessionTools(stack.scope, session.id, ["read", "ls"], { env: stack.env });
    expect(Object.keys(out.patch?.sections ?? {})).toEqual(["preamble", "tools", "rules", "docs", "cwd"]);
    expect(out.patch?.toolsAdded?.map((t) => t.name)).toEqual(["read", "ls"]);
    expect(await branchLabels(session.id)).toEqual(["model_change", "thinking_level_change", "system"]);
    stack.mock.enqueue({ text: "ok" });
    await runPrompt({ sessionId: session.id, text: "go", env: stack.env, emit: async () => {} });
    expect(requestTools(0)).toEqual(["read", "ls"]);
    expect(await branchLabels(session.id)).toEqual([
      "model_change",
      "thinking_level_change",
      "system",
      "user",
      "assistant",
    ]);
  });

  it("is refused while a run holds the session", async () => {
    const session = await newSession();
    const runId = await startRun(stack.scope, session.id);
    await expect(setSessionTools(stack.scope, session.id, ["read"], { env: stack.env })).rejects.toThrow(
      new ToolsChangeBusyError("prompt").message,
    );
    await finishRun(stack.scope, runId);
  });
});

describe("extensions: setActiveTools, getActiveTools, sendMessage", () => {
  it("pi 6.4: system patch → user → nextTurn custom message → before_agent_start message; a command's changes are recorded at the end", async () => {
    const session = await newSession();
    const seen: string[][] = [];
    const setupErrors: string[] = [];
    const extension: ExtensionModule = {
      path: "test:tools",
      setup(api) {
        try {
          api.getActiveTools();
        } catch (error) {
          setupErrors.push((error as Error).message);
        }
        api.registerCommand("readonly", {
          handler: async () => {
            api.setActiveTools(["read"]);
            await api.sendMessage(
              { customType: "note", content: "from command", display: true },
              { deliverAs: "nextTurn" },
            );
          },
        });
        api.on("input", async (event) => {
          if (!event.text.startsWith("narrow")) return;
          api.setActiveTools(["read", "bash"]);
          seen.push(api.getActiveTools());
          await api.sendMessage(
            { customType: "note", content: "next-turn note", display: true },
            { deliverAs: "nextTurn" },
          );
        });
        api.on("before_agent_start", (event) =>
          event.prompt.startsWith("narrow")
            ? { message: { customType: "note", content: "from before_agent_start", display: true } }
            : undefined,
        );
      },
    };
    const events: RunEvent[] = [];
    const run = (text: string) =>
      runPrompt({
        sessionId: session.id,
        text,
        env: stack.env,
        emit: async (e) => void events.push(e),
        extensions: [extension],
      });
    stack.mock.enqueue({ text: "one" }, { text: "two" });
    await run("first");
    await run("narrow it");
    expect(setupErrors).toEqual([RUNTIME_NOT_INITIALIZED_ERROR, RUNTIME_NOT_INITIALIZED_ERROR]);
    expect(seen).toEqual([["read", "bash"]]);
    expect(requestTools(1)).toEqual(["read", "bash"]);
    const body = stack.mock.requests[1].body as { messages: { role: string; content: { text: string }[] }[] };
    expect(body.messages.at(-1)?.content.map((c) => c.text)).toEqual([
      "narrow it",
      "next-turn note",
      "from before_agent_start",
    ]);
    expect((await branchLabels(session.id)).slice(5)).toEqual([
      "system",
      "user",
      "custom:next-turn note",
      "custom:from before_agent_start",
      "assistant",
    ]);
    expect(await lastSystem(session.id)).toMatchObject({
      toolsRemoved: [{ name: "edit" }, { name: "write" }],
    });

    // A command-only request: no prompt follows in it, so its tool change and held message are recorded at its end.
    await run("/readonly");
    expect(stack.mock.requests).toHaveLength(2);
    expect((await branchLabels(session.id)).slice(10)).toEqual(["system", "custom:from command"]);
    expect(await lastSystem(session.id)).toEqual({
      role: "system",
      content: "",
      sections: READ_ONLY_SECTIONS,
      toolsRemoved: [{ name: "bash" }],
      timestamp: expect.any(Number),
    });
    expect((await getSessionTools(stack.scope, session.id)).active).toEqual(["read"]);
  });

  it("pi 6.8 while streaming: a sendMessage is steered into the run; one with triggerTurn false is appended when it ends", async () => {
    const session = await newSession();
    let sent = false;
    const extension: ExtensionModule = {
      path: "test:streaming",
      setup(api) {
        api.on("context", async () => {
          if (sent) return;
          sent = true;
          await api.sendMessage({ customType: "note", content: "steered", display: true });
          await api.sendMessage(
            { customType: "note", content: "after", display: true },
            { triggerTurn: false },
          );
        });
      },
    };
    stack.mock.enqueue({ text: "a1" }, { text: "a2" });
    await runPrompt({
      sessionId: session.id,
      text: "go",
      env: stack.env,
      emit: async () => {},
      extensions: [extension],
    });
    expect(stack.mock.requests).toHaveLength(2);
    const second = stack.mock.requests[1].body as {
      messages: { role: string; content: { text: string }[] }[];
    };
    expect(second.messages.at(-1)?.content.map((c) => c.text)).toEqual(["steered"]);
    expect((await branchLabels(session.id)).slice(2)).toEqual([
      "system",
      "user",
      "assistant",
      "custom:steered",
      "assistant",
      "custom:after",
    ]);
  });
});
