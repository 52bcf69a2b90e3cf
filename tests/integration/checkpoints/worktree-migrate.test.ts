/**
 * Moving a project older than per-session working trees (lib/checkpoints/worktree-migrate.ts), on the real Postgres:
 * the shared working tree's uncommitted edit is committed as the main line, a session with a checkpoint gets its
 * leaf's files and one without gets main's; two requests at once migrate once; a claim left by a dead request is
 * taken over.
 */
import { describe, expect, it } from "vitest";
import { ensureWorktrees, MAIN_LINE_MESSAGE } from "@/lib/checkpoints/worktree-migrate";
import { DbScope } from "@/lib/db/client";
import { getProject } from "@/lib/projects/projects";
import { appendEntry } from "@/lib/session/append";
import { createSession } from "@/lib/session/store";
import { checkpoint, log } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import { openSessionVfs, openWorkspaceVfs } from "@/lib/vfs/workspace";
import { withMockStack } from "../../helpers/mock-stack";
import { projectWithSession, type SessionFixture } from "../../helpers/session-fixture";

const stack = withMockStack();

async function read(f: SessionFixture, sessionId: string, rel: string): Promise<string | null> {
  const { vfs, scope } = openSessionVfs(f.project, sessionId, new DbScope());
  try {
    return await vfs.readText(`${f.project.rootPath}/${rel}`).catch(() => null);
  } finally {
    await scope.release();
  }
}

/** A project as an older Strata left it: one shared working tree with an uncommitted edit, a session with a checkpoint. */
async function oldProject() {
  const f = await projectWithSession(stack.scope, { "a.txt": "init\n" });
  const root = f.project.rootPath;
  const withCheckpoint = await createSession(stack.scope, { projectId: f.project.id, cwd: root });
  const { vfs, scope } = openWorkspaceVfs(f.project.workspaceId, new DbScope());
  await vfs.writeFile(`${root}/a.txt`, "the session's\n");
  const made = await checkpoint(vfs, root, {
    changedPaths: [`${root}/a.txt`],
    ref: sessionRef(withCheckpoint.id),
    parent: f.initCommit,
    message: "Strata checkpoint: 1 file changed",
    author: { name: "t", email: "t@x" },
  });
  await vfs.writeFile(`${root}/a.txt`, "uncommitted in the shared tree\n");
  await vfs.flush();
  await scope.release();
  await appendEntry(
    stack.scope,
    withCheckpoint.id,
    { type: "message", message: { role: "user", content: [{ type: "text", text: "x" }], timestamp: 1 } },
    { commit: made!.oid },
  );
  await stack.scope.query("UPDATE projects SET worktrees_at = NULL WHERE id = $1", [f.project.id]);
  const project = (await getProject(stack.scope, f.project.id))!;
  return { f, project, withCheckpoint };
}

describe("moving an older project to a working tree per session", () => {
  it("commits the shared tree as main and gives each session its leaf's files, once, whoever asks at once", async () => {
    const { f, project, withCheckpoint } = await oldProject();
    expect(project.worktreesAt).toBe(null);
    const scopes = [new DbScope(), new DbScope()];
    await Promise.all(scopes.map((s) => ensureWorktrees(s, project)));
    for (const s of scopes) await s.release();
    const { vfs, scope } = openWorkspaceVfs(f.project.workspaceId, new DbScope());
    const history = await log(vfs, f.project.rootPath, "HEAD");
    await scope.release();
    expect(history.map((c) => c.message.trim())).toEqual([MAIN_LINE_MESSAGE, "init"]);
    expect(await read(f, f.session.id, "a.txt")).toBe("uncommitted in the shared tree\n");
    expect(await read(f, withCheckpoint.id, "a.txt")).toBe("the session's\n");
    const done = (await getProject(stack.scope, f.project.id))!;
    expect(new Date(done.worktreesAt!).getUTCFullYear()).toBeGreaterThan(2020);
    await ensureWorktrees(stack.scope, done);
    const again = await log(
      openWorkspaceVfs(f.project.workspaceId, stack.scope).vfs,
      f.project.rootPath,
      "HEAD",
    );
    expect(again).toHaveLength(2);
  });

  it("takes over a claim its request left behind", async () => {
    const { f, withCheckpoint } = await oldProject();
    // A claim from three minutes ago (its request died): taken over.
    await stack.scope.query(
      "UPDATE projects SET worktrees_at = now() - interval '100 years' - interval '3 minutes' WHERE id = $1",
      [f.project.id],
    );
    await ensureWorktrees(stack.scope, (await getProject(stack.scope, f.project.id))!);
    expect(await read(f, withCheckpoint.id, "a.txt")).toBe("the session's\n");
  });
});
