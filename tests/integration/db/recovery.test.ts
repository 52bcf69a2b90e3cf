/**
 * Takeover of a dead run (real route, real Postgres, mock provider): a run that flushed files and died before
 * its checkpoint leaves them recorded in session_pending_paths; the next prompt, taking the session over once
 * the run went silent for RUN_STALE_MS, commits exactly those files as a recovery checkpoint on the session's
 * ref and stores and streams a displayed custom_message saying so.
 */

import { describe, expect, it } from "vitest";
import {
  createCheckpointer,
  RECOVERY_COMMIT_MESSAGE,
  RECOVERY_CUSTOM_TYPE,
  recoveryNotice,
} from "@/lib/agent-session/checkpointer";
import { USER_CHANGES_MESSAGE } from "@/lib/agent-session/file-state";
import { DbScope } from "@/lib/db/client";
import { insertProject } from "@/lib/projects/projects";
import { RUN_STALE_MS, startPromptRun } from "@/lib/session/runs";
import { createSession } from "@/lib/session/store";
import { commitAll, initRepository, log, readTextAt, resolveRef } from "@/lib/vfs/git";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { signedInUser } from "../../helpers/auth";
import { withMockStack } from "../../helpers/mock-stack";
import { promptEvents } from "../../helpers/prompt-stream";

/** The signed-in user every route is called as (tests/helpers/auth.ts); the projects live in its personal workspace. */
const signedIn = signedInUser();

const stack = withMockStack({ scope: false, processEnv: true });

async function withScope<T>(fn: (s: DbScope) => Promise<T>): Promise<T> {
  const s = new DbScope();
  try {
    return await fn(s);
  } finally {
    await s.release();
  }
}

const prompt = (id: string, text: string, onEvent?: (type: string) => void) =>
  promptEvents(signedIn.user, id, text, onEvent);

const countRecoveryNotices = (sessionId: string) =>
  withScope(
    async (s) =>
      (
        await s.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM session_entries WHERE session_id = $1 AND type = 'custom_message'
           AND (entry::jsonb)->>'customType' = $2`,
          [sessionId, RECOVERY_CUSTOM_TYPE],
        )
      )[0].n,
  );

describe("a run that died between its flush and its checkpoint", () => {
  it("the next prompt commits exactly its files as a recovery checkpoint and says so in the chat", async () => {
    const { session, root, workspaceId } = await withScope(async (scope) => {
      const actor = await signedIn.actor();
      const project = await insertProject(scope, {
        workspaceId: actor.workspaceId,
        name: "recover",
        source: null,
      });
      const { vfs } = openWorkspaceVfs(actor.workspaceId, scope);
      await initRepository(vfs, project.rootPath);
      await vfs.writeFile(`${project.rootPath}/a.txt`, "alpha\n");
      await commitAll(vfs, project.rootPath, { message: "init", author: { name: "t", email: "t@x" } });
      await vfs.flush();
      const created = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
      return { session: created, root: project.rootPath, workspaceId: actor.workspaceId };
    });

    // The run: takes the session, writes two files through its checkpointer, flushes… and dies.
    const dead = await withScope(async (scope) => {
      const { id } = await startPromptRun(scope, session.id);
      const { vfs } = openWorkspaceVfs(workspaceId, scope);
      const checkpointer = createCheckpointer(
        { vfs, root, session },
        { emit: async () => {}, scope, runId: id },
      );
      await vfs.writeFile(`${root}/a.txt`, "alpha 2\n");
      await vfs.writeFile(`${root}/src/b.txt`, "beta\n");
      await checkpointer.flush();
      return id;
    });
    // Meanwhile an edit that is not the run's (the IDE): it must not be in the recovery checkpoint.
    await withScope(async (scope) => {
      const { vfs } = openWorkspaceVfs(workspaceId, scope);
      await vfs.writeFile(`${root}/c.txt`, "not the run's\n");
      await vfs.flush();
    });
    expect(
      await withScope(async (s) =>
        (
          await s.query<{ path: string }>(
            "SELECT path FROM session_pending_paths WHERE session_id = $1 AND run_id = $2 ORDER BY path",
            [session.id, dead],
          )
        ).map((r) => r.path),
      ),
    ).toEqual([`${root}/a.txt`, `${root}/src`, `${root}/src/b.txt`]);
    // Its heartbeat stopped RUN_STALE_MS ago.
    await withScope((s) =>
      s.query(
        "UPDATE session_runs SET heartbeat_at = now() - ($2::int * interval '1 millisecond') WHERE id = $1",
        [dead, RUN_STALE_MS + 1000],
      ),
    );

    stack.mock.enqueue({ text: "Noted." });
    const events = await prompt(session.id, "what happened?");
    expect(events.filter((e) => e.type === "error")).toEqual([]);

    const ref = `refs/heads/strata/session-${session.id}`;
    const tip = await withScope(async (s) => {
      const { vfs } = openWorkspaceVfs(workspaceId, s);
      const history = await log(vfs, root, ref);
      // The recovery checkpoint, then the IDE's edit as the user's checkpoint before the prompt (docs/checkpoints.md).
      expect(history.map((c) => c.message.trim())).toEqual([
        USER_CHANGES_MESSAGE,
        RECOVERY_COMMIT_MESSAGE,
        "init",
      ]);
      expect(history[0].parents).toEqual([history[1].oid]);
      expect(await readTextAt(vfs, root, history[0].oid, "c.txt")).toBe("not the run's\n");
      const oid = history[1].oid;
      expect(await resolveRef(vfs, root, ref)).toBe(history[0].oid);
      expect(await readTextAt(vfs, root, oid, "a.txt")).toBe("alpha 2\n");
      expect(await readTextAt(vfs, root, oid, "src/b.txt")).toBe("beta\n");
      await expect(readTextAt(vfs, root, oid, "c.txt")).rejects.toThrow(
        `Could not find file or directory found at "${oid}:c.txt".`,
      );
      return oid;
    });
    expect(RECOVERY_COMMIT_MESSAGE).toBe("Recovery checkpoint: files changed by an interrupted run");

    // The user sees it: streamed, then stored once as a displayed custom_message (in the model's context too).
    const notice = recoveryNotice(["a.txt", "src/b.txt"], tip);
    expect(notice).toBe(
      `An interrupted run left 2 changed files without a checkpoint; they were committed as recovery checkpoint ${tip.slice(0, 7)}: a.txt, src/b.txt.`,
    );
    const shown = events.find(
      (e) => e.type === "message_end" && (e.data.message as { role: string }).role === "custom",
    );
    expect(shown?.data.message).toEqual({
      role: "custom",
      customType: RECOVERY_CUSTOM_TYPE,
      content: notice,
      display: true,
      details: { commit: tip, paths: ["a.txt", "src/b.txt"] },
      timestamp: expect.any(Number),
    });
    expect(events.find((e) => e.type === "files_changed")?.data).toEqual({
      type: "files_changed",
      paths: ["a.txt", "src/b.txt"],
      commit: tip,
    });
    expect(await countRecoveryNotices(session.id)).toBe(1);
    const request = stack.mock.requests.find((r) => r.path === "/v1/messages");
    expect(JSON.stringify(request?.body)).toContain(notice);
    expect(
      await withScope(
        async (s) =>
          (
            await s.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM session_pending_paths WHERE session_id = $1",
              [session.id],
            )
          )[0].n,
      ),
    ).toBe(0);

    // Recovered once: the prompt after that has nothing to recover.
    stack.mock.enqueue({ text: "Again." });
    const again = await prompt(session.id, "and now?");
    expect(again.some((e) => e.type === "files_changed")).toBe(false);
    expect(await countRecoveryNotices(session.id)).toBe(1);
  });
});
