/**
 * A project with a git repository and sessions that have a row in every table that references them (entries,
 * a finished run, a queued message, a pending path, a checkpoint commit on their branch), plus a staged session
 * upload with a part and a trust decision: what deleting a session or a project must remove, and what deleting
 * another one must leave exactly as it was.
 */
import { createCheckpointer } from "@/lib/agent-session/checkpointer";
import type { DbScope } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";
import { insertProject, type Project } from "@/lib/projects/projects";
import { recordPendingPaths } from "@/lib/session/pending-paths";
import { finishRun, startPromptRun } from "@/lib/session/runs";
import { createSessionUpload, putSessionUploadPart } from "@/lib/session/session-upload";
import { appendEntry, createSession, type SessionRow } from "@/lib/session/store";
import { commitAll, initRepository, resolveRef } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";

const author = { name: "t", email: "t@x" };

/**
 * Import-like project: a repository with `a.txt` committed on main, in `actor`'s workspace (default: the local
 * owner's personal workspace; route tests pass their signed-in user).
 */
export async function makeProject(
  scope: DbScope,
  name: string,
  actor?: { userId: string; workspaceId: string },
): Promise<Project> {
  actor ??= await getLocalActor(scope);
  const project = await insertProject(scope, { workspaceId: actor.workspaceId, name, source: null });
  const { vfs } = openWorkspaceVfs(actor.workspaceId, scope);
  await initRepository(vfs, project.rootPath);
  await vfs.writeFile(`${project.rootPath}/a.txt`, "alpha\n");
  await commitAll(vfs, project.rootPath, { message: "init", author });
  await vfs.flush();
  await scope.query(
    "INSERT INTO project_trust (user_id, workspace_id, dir, trusted) VALUES ($1, $2, $3, true)",
    [actor.userId, actor.workspaceId, project.rootPath],
  );
  return project;
}

/** A session of `project` with 2 entries, 1 finished run, 1 queued message, 1 pending path and 1 checkpoint. */
export async function makeSession(scope: DbScope, project: Project, file: string): Promise<SessionRow> {
  const session = await createSession(scope, { projectId: project.id, cwd: project.rootPath });
  await appendEntry(scope, session.id, {
    type: "message",
    message: { role: "user", content: `write ${file}`, timestamp: 1 },
  });
  await appendEntry(scope, session.id, {
    type: "custom_message",
    customType: "test",
    content: "noted",
    display: true,
  });
  const run = await startPromptRun(scope, session.id);
  const { vfs } = openWorkspaceVfs(project.workspaceId, scope);
  const checkpointer = createCheckpointer(
    { vfs, root: project.rootPath, session },
    { emit: async () => {}, scope, runId: run.id },
  );
  await vfs.writeFile(`${project.rootPath}/${file}`, `${file}\n`);
  await checkpointer.checkpoint();
  await recordPendingPaths(scope, session.id, run.id, [`${project.rootPath}/pending-${file}`]);
  await scope.query(
    "INSERT INTO session_queue (session_id, kind, input_text, message) VALUES ($1, 'followUp', 'later', $2)",
    [session.id, JSON.stringify({ role: "user", content: "later", timestamp: 2 })],
  );
  await finishRun(scope, run.id);
  if (!(await resolveRef(vfs, project.rootPath, sessionRef(session.id))))
    throw new Error("no checkpoint ref");
  return session;
}

/** A staged session upload of `project` with one part. */
export async function makeUpload(scope: DbScope, project: Project): Promise<string> {
  const upload = await createSessionUpload(scope, project.id, "big.jsonl");
  await putSessionUploadPart(
    scope,
    project.id,
    upload.id,
    0,
    new TextEncoder().encode('{"type":"session"}\n'),
  );
  return upload.id;
}

/** Rows referencing `sessionId` in each table, and whether its checkpoint branch resolves. */
export async function sessionFootprint(scope: DbScope, project: Project, sessionId: string) {
  const count = async (table: string) =>
    (
      await scope.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE session_id = $1`, [
        sessionId,
      ])
    )[0].n;
  const { vfs } = openWorkspaceVfs(project.workspaceId, scope);
  const branch = await resolveRef(vfs, project.rootPath, sessionRef(sessionId)).catch(() => null);
  return {
    sessions: (
      await scope.query<{ n: number }>("SELECT count(*)::int AS n FROM sessions WHERE id = $1", [sessionId])
    )[0].n,
    entries: await count("session_entries"),
    runs: await count("session_runs"),
    queue: await count("session_queue"),
    pending: await count("session_pending_paths"),
    branch: branch !== null,
  };
}
