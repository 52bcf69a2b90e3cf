/**
 * Renaming and deleting projects against the real Postgres (lib/projects/projects.ts): a delete leaves no row of
 * the project in any table (sessions and their tables, staged uploads and their parts, VFS nodes of its
 * directory, trust decisions), and another project keeps exactly what it had.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbScope } from "@/lib/db/client";
import {
  deleteProject,
  getProject,
  type Project,
  ProjectRefusedError,
  renameProject,
} from "@/lib/projects/projects";
import { startRun } from "@/lib/session/runs";
import { makeProject, makeSession, makeUpload, sessionFootprint } from "../../helpers/lifecycle-fixture";

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

const n = async (sql: string, params: unknown[]) => (await scope.query<{ n: number }>(sql, params))[0].n;

/** Rows of `project` in every table that references it or its directory. */
async function projectFootprint(project: Project) {
  const sessions = `SELECT id FROM sessions WHERE project_id = $1`;
  return {
    projects: await n("SELECT count(*)::int AS n FROM projects WHERE id = $1", [project.id]),
    sessions: await n("SELECT count(*)::int AS n FROM sessions WHERE project_id = $1", [project.id]),
    entries: await n(`SELECT count(*)::int AS n FROM session_entries WHERE session_id IN (${sessions})`, [
      project.id,
    ]),
    runs: await n(`SELECT count(*)::int AS n FROM session_runs WHERE session_id IN (${sessions})`, [
      project.id,
    ]),
    queue: await n(`SELECT count(*)::int AS n FROM session_queue WHERE session_id IN (${sessions})`, [
      project.id,
    ]),
    pending: await n(
      `SELECT count(*)::int AS n FROM session_pending_paths WHERE session_id IN (${sessions})`,
      [project.id],
    ),
    uploads: await n("SELECT count(*)::int AS n FROM session_uploads WHERE project_id = $1", [project.id]),
    uploadParts: await n(
      "SELECT count(*)::int AS n FROM session_upload_parts WHERE upload_id IN (SELECT id FROM session_uploads WHERE project_id = $1)",
      [project.id],
    ),
    vfsNodes: await n(
      "SELECT count(*)::int AS n FROM vfs_nodes WHERE workspace_id = $1 AND (path = $2 OR starts_with(path, $3))",
      [project.workspaceId, project.rootPath, `${project.rootPath}/`],
    ),
    trust: await n("SELECT count(*)::int AS n FROM project_trust WHERE workspace_id = $1 AND dir = $2", [
      project.workspaceId,
      project.rootPath,
    ]),
  };
}

describe("deleteProject", () => {
  it("removes every row of the project and leaves the other project exactly as it was", async () => {
    const doomed = await makeProject(scope, "proj-del");
    const kept = await makeProject(scope, "proj-del");
    // Same name: the second lives in /proj-del-2, which must not match the first's prefix /proj-del/.
    expect([doomed.rootPath, kept.rootPath]).toEqual(["/proj-del", "/proj-del-2"]);
    const doomedSessions = [
      await makeSession(scope, doomed, "a1.txt"),
      await makeSession(scope, doomed, "a2.txt"),
    ];
    await makeSession(scope, kept, "b1.txt");
    await makeUpload(scope, doomed);
    await makeUpload(scope, kept);
    const before = await projectFootprint(doomed);
    const keptBefore = await projectFootprint(kept);
    expect({ ...before, vfsNodes: 0 }).toEqual({
      projects: 1,
      sessions: 2,
      entries: 4,
      runs: 2,
      queue: 2,
      pending: 2,
      uploads: 1,
      uploadParts: 1,
      vfsNodes: 0,
      trust: 1,
    });
    expect(before.vfsNodes).toBeGreaterThan(20);
    const keptNodes = await n(
      "SELECT count(*)::int AS n FROM vfs_nodes WHERE workspace_id = $1 AND NOT (path = $2 OR starts_with(path, $3))",
      [doomed.workspaceId, doomed.rootPath, `${doomed.rootPath}/`],
    );

    const deleted = await deleteProject(scope, doomed.id);
    expect(deleted).toEqual({
      id: doomed.id,
      name: "proj-del",
      rootPath: "/proj-del",
      sessions: 2,
      files: before.vfsNodes,
    });
    expect(await projectFootprint(doomed)).toEqual({
      projects: 0,
      sessions: 0,
      entries: 0,
      runs: 0,
      queue: 0,
      pending: 0,
      uploads: 0,
      uploadParts: 0,
      vfsNodes: 0,
      trust: 0,
    });
    for (const s of doomedSessions)
      expect(await sessionFootprint(scope, doomed, s.id)).toEqual({
        sessions: 0,
        entries: 0,
        runs: 0,
        queue: 0,
        pending: 0,
        branch: false,
      });
    expect(await projectFootprint(kept)).toEqual(keptBefore);
    expect(
      await n("SELECT count(*)::int AS n FROM vfs_nodes WHERE workspace_id = $1", [doomed.workspaceId]),
    ).toBe(keptNodes);
    expect(await getProject(scope, doomed.id)).toBeNull();
  });

  it("refuses while a session runs (409 project_running), deleting nothing; 404 for a missing project", async () => {
    const project = await makeProject(scope, "proj-live");
    const session = await makeSession(scope, project, "l.txt");
    await startRun(scope, session.id, "bash");
    const before = await projectFootprint(project);
    await expect(deleteProject(scope, project.id)).rejects.toMatchObject({
      status: 409,
      code: "project_running",
      message: `Project “proj-live” has a run in progress in session ${session.id}; stop it, then delete the project`,
    });
    expect(await projectFootprint(project)).toEqual(before);
    const id = "00000000-0000-4000-8000-000000000002";
    await expect(deleteProject(scope, id)).rejects.toEqual(
      new ProjectRefusedError(404, "not_found", `Project ${id} not found`),
    );
    await expect(deleteProject(scope, "nope")).rejects.toMatchObject({
      status: 404,
      message: "Project nope not found",
    });
  });
});

describe("renameProject", () => {
  it("changes only the name (trimmed); the directory stays", async () => {
    const project = await makeProject(scope, "proj-name");
    const renamed = await renameProject(scope, project.id, "  Parser work  ");
    expect(renamed).toEqual({ ...project, name: "Parser work" });
    expect(await getProject(scope, project.id)).toEqual({ ...project, name: "Parser work" });
  });

  it("refuses an empty name, control characters, more than 100 characters and a missing project", async () => {
    const project = await makeProject(scope, "proj-name-bad");
    await expect(renameProject(scope, project.id, "   ")).rejects.toMatchObject({
      status: 400,
      code: "bad_request",
      message: "The project name must not be empty",
    });
    await expect(renameProject(scope, project.id, "a\nb")).rejects.toMatchObject({
      status: 400,
      message: "The project name must not contain line breaks or other control characters",
    });
    await expect(renameProject(scope, project.id, "x".repeat(101))).rejects.toMatchObject({
      status: 400,
      message: "The project name is 101 characters long; the limit is 100",
    });
    expect((await renameProject(scope, project.id, "y".repeat(100))).name).toBe("y".repeat(100));
    const id = "00000000-0000-4000-8000-000000000003";
    await expect(renameProject(scope, id, "z")).rejects.toMatchObject({
      status: 404,
      code: "not_found",
      message: `Project ${id} not found`,
    });
    expect((await getProject(scope, project.id))?.name).toBe("y".repeat(100));
  });
});
