/**
 * The shell of a stored session runs in the execution service (STRATA_EXEC_URL, set by tests/global-setup.ts):
 * what it writes is in Postgres, the route's VFS sees it, and the prompt run checkpoints it; a kill reaches the
 * model as the bash tool's error text and the user's `!command` as the end of its output.
 */
import { describe, expect, it } from "vitest";
import { runUserBash } from "@/lib/agent-session/session-bash";
import { type RunEvent, runPrompt } from "@/lib/agent-session/session-run";
import { DbScope } from "@/lib/db/client";
import { loadBranch } from "@/lib/session/context-load";
import { getSession } from "@/lib/session/store";
import { readTextAt, resolveRef } from "@/lib/vfs/git";
import { openSessionVfs, openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithFiles, readStored } from "./fixture";

const stack = withMockStack();

// 20,000 iterations: over the in-process shell's 10,000-iteration bound, so only the service runs it to the end.
const LOOP = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done";

const toolResults = (events: RunEvent[]) =>
  events.flatMap((e) =>
    e.type === "message_end" && e.message.role === "toolResult"
      ? [
          {
            isError: e.message.isError,
            text: e.message.content.map((c) => (c.type === "text" ? c.text : "")).join(""),
          },
        ]
      : [],
  );

describe("a session's shell in the execution service", () => {
  it("a file the bash tool writes is in Postgres, read back by the next tool, and checkpointed", async () => {
    const { actor, project, session, root } = await projectWithFiles(stack.scope, { "a.txt": "a\n" });
    stack.mock.enqueue(
      {
        toolCalls: [
          { id: "toolu_1", name: "bash", input: { command: `${LOOP}; echo $i > made.txt; cat a.txt` } },
        ],
      },
      { toolCalls: [{ id: "toolu_2", name: "read", input: { path: "made.txt" } }] },
      { text: "Done." },
    );
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "go",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(toolResults(events)).toEqual([
      { isError: false, text: "a\n" },
      { isError: false, text: "20000\n" },
    ]);
    expect(events.filter((e) => e.type === "files_changed")).toEqual([
      { type: "files_changed", paths: ["made.txt"], commit: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ]);
    expect(await readStored(actor.workspaceId, `${root}/made.txt`, { sessionId: session.id, root })).toBe(
      "20000\n",
    );
    const s = new DbScope();
    const { vfs } = openSessionVfs(project, session.id, s);
    const tip = await resolveRef(vfs, project.rootPath, `refs/heads/strata/session-${session.id}`);
    expect(await readTextAt(vfs, project.rootPath, tip!, "made.txt")).toBe("20000\n");
    await s.release();
    const pending = await stack.scope.query("SELECT path FROM session_pending_paths WHERE session_id = $1", [
      session.id,
    ]);
    expect(pending).toEqual([]);
  });

  it("a write tool's unflushed file is synced before the command; the command's edit is checkpointed", async () => {
    const { project, session } = await projectWithFiles(stack.scope, {});
    stack.mock.enqueue(
      {
        toolCalls: [
          { id: "toolu_1", name: "write", input: { path: "w.txt", content: "one\n" } },
          { id: "toolu_2", name: "bash", input: { command: "sleep 0.2; cat w.txt; echo two >> w.txt" } },
        ],
      },
      { text: "Done." },
    );
    const events: RunEvent[] = [];
    await runPrompt({
      sessionId: session.id,
      text: "go",
      env: stack.env,
      emit: async (e) => void events.push(e),
    });
    expect(toolResults(events)[1]).toEqual({ isError: false, text: "one\n" });
    const s = new DbScope();
    const { vfs } = openSessionVfs(project, session.id, s);
    const tip = await resolveRef(vfs, project.rootPath, `refs/heads/strata/session-${session.id}`);
    expect(await readTextAt(vfs, project.rootPath, tip!, "w.txt")).toBe("one\ntwo\n");
    await s.release();
  });

  it("the user's !command runs there too, and its file is checkpointed", async () => {
    const { actor, project, session, root } = await projectWithFiles(stack.scope, {});
    const events: RunEvent[] = [];
    await runUserBash({
      sessionId: session.id,
      command: { command: `${LOOP}; echo $i | tee bang.txt`, excludeFromContext: false },
      emit: async (e) => void events.push(e),
    });
    const end = events.find((e) => e.type === "message_end");
    expect(end).toMatchObject({ message: { role: "bashExecution", output: "20000\n", exitCode: 0 } });
    expect(events.find((e) => e.type === "files_changed")).toMatchObject({ paths: ["bang.txt"] });
    expect(await readStored(actor.workspaceId, `${root}/bang.txt`, { sessionId: session.id, root })).toBe(
      "20000\n",
    );
    const stored = await getSession(stack.scope, session.id);
    const branch = await loadBranch(stack.scope, session.id, stored!.leafId);
    expect(branch.at(-1)).toMatchObject({
      type: "message",
      message: { role: "bashExecution", output: "20000\n" },
    });
    void project;
  });

  it("`git commit` in the user's `!command` commits as the acting user; on the session's project it is refused", async () => {
    const { session, workspaceId, root } = await projectWithFiles(stack.scope, { "a.txt": "a\n" });
    const run = async (command: string) => {
      const events: RunEvent[] = [];
      await runUserBash({
        sessionId: session.id,
        command: { command, excludeFromContext: false },
        author: { name: "Ada Lovelace", email: "ada@example.com" },
        emit: async (e) => void events.push(e),
      });
      return events.find((e) => e.type === "message_end");
    };
    // A repository of the session's own (a folder of the project): the acting user is author and committer.
    expect(
      await run(
        "git init lib > /dev/null && cd lib && echo b > b.txt && git add b.txt && git commit -qm 'Add b' && git log -1 --format='%an <%ae> | %cn <%ce>'",
      ),
    ).toMatchObject({
      message: {
        role: "bashExecution",
        output: "Ada Lovelace <ada@example.com> | Ada Lovelace <ada@example.com>\n",
        exitCode: 0,
      },
    });
    // The project's repository is main's: a commit in the session's shell would move main, so it is refused.
    const refused = await run("echo b >> a.txt && git commit -qam 'Edit a'");
    expect(refused).toMatchObject({ message: { role: "bashExecution", exitCode: 128 } });
    expect((refused as { message: { output: string } }).message.output).toContain(
      "fatal: 'git commit' would move the project's main line, which this session shares",
    );
    const s = new DbScope();
    try {
      const { vfs } = openWorkspaceVfs(workspaceId, s);
      const head = (await resolveRef(vfs, root, "HEAD")) as string;
      expect(await readTextAt(vfs, root, head, "a.txt")).toBe("a\n");
    } finally {
      await s.release();
    }
  });
});
