/**
 * A working tree per session (docs/checkpoints.md, "Sessions and the main line"), on real runs: a fork's changes
 * never reach the session it came from (the newcomer's reproduction of issue 28), and two runs and an editor save on
 * three sessions of one project, interleaved, each keep exactly their own files and history.
 */
import { describe, expect, it } from "vitest";
import { runPrompt } from "@/lib/agent-session/session-run";
import { forkWithFiles } from "@/lib/checkpoints/fork";
import { listCheckpoints } from "@/lib/session/checkpoint-rows";
import { loadBranch } from "@/lib/session/context-load";
import { createSession, getSession, type SessionRow } from "@/lib/session/store";
import { readTextAt } from "@/lib/vfs/git";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import {
  ADA,
  projectWithSession,
  promptWriting,
  readProjectFile,
  type SessionFixture,
} from "../../helpers/session-fixture";
import { mockScopeKey } from "../../mock-provider/scope";

const stack = withMockStack();

/** `stack.env` with every API key naming mock scope `id`. */
function envFor(id: string): Record<string, string> {
  const env: Record<string, string> = { ...stack.env };
  for (const [k, v] of Object.entries(env))
    if (k.endsWith("_API_KEY") && v)
      env[k] = mockScopeKey(id, k.startsWith("ANTHROPIC") ? "anthropic" : "other");
  return env;
}

/** The entries a session's first prompt writes before its user message. */
const PREAMBLE = ["model_change", "thinking_level_change", "system"];

const roleOf = (e: { type: string; message?: unknown }) =>
  e.type === "message" ? (e.message as { role: string }).role : e.type;

/** `f` with its session replaced by `session` (same project). */
function on(f: SessionFixture, session: SessionRow): SessionFixture {
  return { ...f, session, openVfs: () => openSessionVfs(f.project, session.id) };
}

async function fileOf(f: SessionFixture, sessionId: string, rel: string): Promise<string | null> {
  const { vfs, scope } = openSessionVfs(f.project, sessionId);
  try {
    return await vfs.readText(`${f.project.rootPath}/${rel}`).catch(() => null);
  } finally {
    await scope.release();
  }
}

async function historyOf(sessionId: string) {
  const leaf = (await getSession(stack.scope, sessionId))!.leafId;
  const path = await loadBranch(stack.scope, sessionId, leaf);
  const kinds = (await listCheckpoints(stack.scope, sessionId)).map((r) => [r.kind, r.paths]);
  return { roles: path.map(roleOf), kinds };
}

describe("a working tree per session", () => {
  it("fork, let the fork change a file, go back and prompt: the original's files and history are untouched", async () => {
    const f = await projectWithSession(stack.scope, { "notes.md": "start\n" });
    await promptWriting(stack.mock, stack.env, f, "first", { "notes.md": "original\n" });
    const leaf = (await getSession(stack.scope, f.session.id))!.leafId!;
    const forked = await forkWithFiles({
      scope: stack.scope,
      sessionId: f.session.id,
      entryId: leaf,
      files: true,
      author: ADA,
      userId: null,
    });
    const fork = on(f, forked.session);
    await promptWriting(
      stack.mock,
      stack.env,
      fork,
      "in the fork",
      { "notes.md": "fork\n", "fork-only.md": "x\n" },
      "f",
    );
    expect(await fileOf(f, forked.session.id, "notes.md")).toBe("fork\n");
    // Back in the original session: its files are its own, and its next prompt records no "changes between turns".
    expect(await readProjectFile(f, "notes.md")).toBe("original\n");
    expect(await readProjectFile(f, "fork-only.md")).toBe(null);
    await promptWriting(stack.mock, stack.env, f, "second", { "other.md": "o\n" }, "s");
    expect(await historyOf(f.session.id)).toEqual({
      roles: [
        ...PREAMBLE,
        "user",
        "assistant",
        "toolResult",
        "assistant",
        "user",
        "assistant",
        "toolResult",
        "assistant",
      ],
      kinds: [
        ["agent", ["notes.md"]],
        ["agent", ["other.md"]],
      ],
    });
    const rows = await listCheckpoints(stack.scope, f.session.id);
    expect(await readTextAt(f.openVfs().vfs, f.project.rootPath, rows[1].commitOid, "notes.md")).toBe(
      "original\n",
    );
  });

  it("two runs and an editor save on three sessions of one project, interleaved: nothing lost, each history exact", async () => {
    const f = await projectWithSession(stack.scope, { "notes.md": "start\n" });
    const b = on(f, await createSession(stack.scope, { projectId: f.project.id, cwd: f.project.rootPath }));
    const c = await createSession(stack.scope, { projectId: f.project.id, cwd: f.project.rootPath });
    const save = (async () => {
      const { vfs, scope } = openSessionVfs(f.project, c.id);
      try {
        await vfs.writeFile(`${f.project.rootPath}/notes.md`, "saved in C\n");
        await vfs.flush();
      } finally {
        await scope.release();
      }
    })();
    // Each run has its own mock scope (its API key names it), so each gets exactly its own answers.
    stack.mock
      .scope("runa")
      .enqueue(
        { toolCalls: [{ id: "a_1", name: "write", input: { path: "notes.md", content: "run A\n" } }] },
        { text: "Done." },
      );
    stack.mock
      .scope("runb")
      .enqueue(
        { toolCalls: [{ id: "b_1", name: "write", input: { path: "notes.md", content: "run B\n" } }] },
        { text: "Done." },
      );
    const run = (s: SessionFixture, text: string, scopeId: string) =>
      runPrompt({ sessionId: s.session.id, text, env: envFor(scopeId), author: ADA, emit: async () => {} });
    await Promise.all([run(f, "A writes", "runa"), run(b, "B writes", "runb"), save]);
    const texts = [
      await fileOf(f, f.session.id, "notes.md"),
      await fileOf(f, b.session.id, "notes.md"),
      await fileOf(f, c.id, "notes.md"),
    ];
    expect(texts).toEqual(["run A\n", "run B\n", "saved in C\n"]);
    for (const s of [f.session.id, b.session.id]) {
      const h = await historyOf(s);
      expect(h).toEqual({
        roles: [...PREAMBLE, "user", "assistant", "toolResult", "assistant"],
        kinds: [["agent", ["notes.md"]]],
      });
    }
    // Main is untouched by all three.
    const { vfs, scope } = f.openVfs();
    try {
      const mainText = await readTextAt(vfs, f.project.rootPath, f.initCommit, "notes.md");
      expect(mainText).toBe("start\n");
    } finally {
      await scope.release();
    }
    expect(
      await fileOf(
        f,
        (await createSession(stack.scope, { projectId: f.project.id, cwd: f.project.rootPath })).id,
        "notes.md",
      ),
    ).toBe("start\n");
  });
});
