/**
 * Renaming and deleting sessions against the real Postgres (lib/session/lifecycle.ts): a delete leaves no row of
 * the session in any table that references it and removes its checkpoint branch, while the project's other
 * session keeps every row; a rename is pi's `session_info` entry, so the export carries it.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import type { Project } from "@/lib/projects/projects";
import { SessionNotFoundError } from "@/lib/session/errors";
import { exportSessionJsonl } from "@/lib/session/import-export";
import { parseSessionJsonl } from "@/lib/session/jsonl";
import {
  deleteSession,
  LifecycleRefusedError,
  renameSession,
  withoutPackedRef,
} from "@/lib/session/lifecycle";
import { RUN_STALE_MS, startRun } from "@/lib/session/runs";
import { appendSessionInfo, getSession, listSessions } from "@/lib/session/store";
import { sessionRef } from "@/lib/vfs/session-ref";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { makeProject, makeSession, sessionFootprint } from "../../helpers/lifecycle-fixture";

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const full = { sessions: 1, entries: 2, runs: 1, queue: 1, pending: 1, branch: true };
const none = { sessions: 0, entries: 0, runs: 0, queue: 0, pending: 0, branch: false };

async function nodeExists(project: Project, path: string): Promise<boolean> {
  const rows = await scope.query("SELECT 1 FROM vfs_nodes WHERE workspace_id = $1 AND path = $2", [
    project.workspaceId,
    path,
  ]);
  return rows.length === 1;
}

describe("deleteSession", () => {
  it("removes the session's rows in every table and its branch; the other session is untouched", async () => {
    const project = await makeProject(scope, "life-del");
    const doomed = await makeSession(scope, project, "one.txt");
    const kept = await makeSession(scope, project, "two.txt");
    expect(await sessionFootprint(scope, project, doomed.id)).toEqual(full);
    expect(await sessionFootprint(scope, project, kept.id)).toEqual(full);

    const deleted = await deleteSession(scope, doomed.id);
    expect(deleted).toEqual({
      id: doomed.id,
      projectId: project.id,
      title: null,
      entries: 2,
      branchDeleted: true,
    });
    expect(await sessionFootprint(scope, project, doomed.id)).toEqual(none);
    expect(await sessionFootprint(scope, project, kept.id)).toEqual(full);
    expect(await nodeExists(project, `${project.rootPath}/.git/${sessionRef(doomed.id)}`)).toBe(false);
    // The directory still holds the other session's ref; the project's files are not touched.
    expect(await nodeExists(project, `${project.rootPath}/.git/refs/heads/strata`)).toBe(true);
    expect(await nodeExists(project, `${project.rootPath}/one.txt`)).toBe(true);
    expect((await listSessions(scope, project.id)).map((s) => s.id)).toEqual([kept.id]);

    // The last session's ref goes with its now empty directory.
    await deleteSession(scope, kept.id);
    expect(await sessionFootprint(scope, project, kept.id)).toEqual(none);
    expect(await nodeExists(project, `${project.rootPath}/.git/refs/heads/strata`)).toBe(false);
    expect(await nodeExists(project, `${project.rootPath}/.git/refs/heads`)).toBe(true);
    expect(await listSessions(scope, project.id)).toEqual([]);
  });

  it("removes a branch kept in packed-refs and leaves the other lines", async () => {
    const project = await makeProject(scope, "life-packed");
    const session = await makeSession(scope, project, "p.txt");
    const { vfs } = openWorkspaceVfs(project.workspaceId, scope);
    const gitdir = `${project.rootPath}/.git`;
    const oid = (await vfs.readText(`${gitdir}/${sessionRef(session.id)}`)).trim();
    const packed = `# pack-refs with: peeled fully-peeled sorted \n${oid} refs/heads/other\n${oid} ${sessionRef(session.id)}\n${oid} refs/tags/v1\n^${oid}\n`;
    await vfs.writeFile(`${gitdir}/packed-refs`, packed);
    await vfs.removeTree(`${gitdir}/${sessionRef(session.id)}`);
    await vfs.flush();
    expect(await sessionFootprint(scope, project, session.id)).toEqual(full);

    expect((await deleteSession(scope, session.id)).branchDeleted).toBe(true);
    expect(await sessionFootprint(scope, project, session.id)).toEqual(none);
    const after = openWorkspaceVfs(project.workspaceId, scope).vfs;
    expect(await after.readText(`${gitdir}/packed-refs`)).toBe(
      `# pack-refs with: peeled fully-peeled sorted \n${oid} refs/heads/other\n${oid} refs/tags/v1\n^${oid}\n`,
    );
  });

  it("refuses a session with a live run (409 session_running) and deletes nothing; a stale run does not block", async () => {
    const project = await makeProject(scope, "life-live");
    const session = await makeSession(scope, project, "l.txt");
    const runId = await startRun(scope, session.id, "prompt");
    const refusal = await deleteSession(scope, session.id).catch((e) => e);
    expect(refusal).toBeInstanceOf(LifecycleRefusedError);
    expect(refusal).toMatchObject({
      status: 409,
      code: "session_running",
      message: `Session ${session.id} has a run in progress (an agent run); stop it, then delete the session`,
    });
    expect(await sessionFootprint(scope, project, session.id)).toEqual({ ...full, runs: 2 });

    await scope.query(
      "UPDATE session_runs SET heartbeat_at = now() - ($2::int * interval '1 millisecond') WHERE id = $1",
      [runId, RUN_STALE_MS + 1000],
    );
    expect((await deleteSession(scope, session.id)).entries).toBe(2);
    expect(await sessionFootprint(scope, project, session.id)).toEqual(none);
  });

  it("a missing session is SessionNotFoundError", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    await expect(deleteSession(scope, id)).rejects.toEqual(new SessionNotFoundError(id));
  });
});

describe("renameSession", () => {
  it("appends pi's session_info entry, sets the title, and the export carries the name", async () => {
    const project = await makeProject(scope, "life-name");
    const session = await makeSession(scope, project, "n.txt");
    const renamed = await renameSession(scope, session.id, "  Fix the\r\nparser  ");
    expect(renamed.title).toBe("Fix the parser");
    expect((await getSession(scope, session.id))?.title).toBe("Fix the parser");
    const parsed = parseSessionJsonl(await exportSessionJsonl(scope, session.id));
    const last = parsed.entries[parsed.entries.length - 1];
    expect(parsed.entries).toHaveLength(3);
    expect(last).toMatchObject({
      type: "session_info",
      name: "Fix the parser",
      parentId: parsed.entries[1].id,
    });
    expect(Object.keys(last)).toEqual(["type", "id", "parentId", "timestamp", "name"]);
    // Renamed again: the newest name wins (pi 7.22).
    await renameSession(scope, session.id, "Second");
    expect((await getSession(scope, session.id))?.title).toBe("Second");
    expect(await sessionFootprint(scope, project, session.id)).toEqual({ ...full, entries: 4 });
  });

  it("refuses an empty or too long name, a compaction in progress and a missing session", async () => {
    const project = await makeProject(scope, "life-name-bad");
    const session = await makeSession(scope, project, "b.txt");
    await expect(renameSession(scope, session.id, " \n ")).rejects.toMatchObject({
      status: 400,
      code: "bad_request",
      message: "The session name must not be empty",
    });
    await expect(renameSession(scope, session.id, "x".repeat(201))).rejects.toMatchObject({
      status: 400,
      message: "The session name is 201 characters long; the limit is 200",
    });
    expect((await renameSession(scope, session.id, "é".repeat(200))).title).toBe("é".repeat(200));
    await startRun(scope, session.id, "compaction");
    await expect(renameSession(scope, session.id, "Later")).rejects.toMatchObject({
      status: 409,
      code: "session_busy",
      message: `Session ${session.id} is busy with a compaction; rename it when that has finished`,
    });
    expect((await getSession(scope, session.id))?.title).toBe("é".repeat(200));
    const id = "00000000-0000-4000-8000-000000000001";
    await expect(renameSession(scope, id, "x")).rejects.toEqual(new SessionNotFoundError(id));
  });

  it("refuses control characters; a title Postgres cannot store leaves neither entry nor title (one transaction)", async () => {
    const project = await makeProject(scope, "life-name-ctl");
    const session = await makeSession(scope, project, "c.txt");
    const before = await getSession(scope, session.id);
    await expect(renameSession(scope, session.id, "a\u0000b")).rejects.toMatchObject({
      status: 400,
      code: "bad_request",
      message: "The session name must not contain control characters (tabs, NUL and the like)",
    });
    // Below the check, the store itself: Postgres refuses the NUL, and the whole append rolls back.
    await expect(appendSessionInfo(scope, session.id, "a\u0000b")).rejects.toThrow();
    const after = await getSession(scope, session.id);
    expect(after?.title).toBe(before?.title);
    expect(after?.leafId).toBe(before?.leafId);
    expect(await sessionFootprint(scope, project, session.id)).toEqual(full);
    expect(parseSessionJsonl(await exportSessionJsonl(scope, session.id)).entries).toHaveLength(2);
  });
});

describe("withoutPackedRef", () => {
  it("drops the ref's line and its peeled line; null when absent", () => {
    expect(withoutPackedRef("a refs/tags/t\n^b\nc refs/heads/x\n", "refs/tags/t")).toBe("c refs/heads/x\n");
    expect(withoutPackedRef("c refs/heads/x\n", "refs/heads/y")).toBeNull();
  });
});
