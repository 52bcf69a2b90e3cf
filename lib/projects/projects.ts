/** Projects: directories of a workspace VFS, each its own git repository. */

import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { StrataError } from "@/lib/errors/strata-error";
import { RUN_STALE_MS } from "@/lib/session/runs";

export interface Project {
  id: string;
  workspaceId: string;
  name: string;
  /** Absolute VFS path of the project directory, e.g. "/strata". */
  rootPath: string;
  createdAt: string;
  /** When it moved to a working tree per session (lib/checkpoints/worktree-migrate.ts); null = not yet. */
  worktreesAt?: string | null;
}

interface RawProject {
  id: string;
  workspace_id: string;
  name: string;
  root_path: string;
  created_at: Date | string;
  worktrees_at?: Date | string | null;
}

function toProject(r: RawProject): Project {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    name: r.name,
    rootPath: r.root_path,
    createdAt: new Date(r.created_at).toISOString(),
    worktreesAt: r.worktrees_at ? new Date(r.worktrees_at).toISOString() : null,
  };
}

/** A project by id, or null. */
export async function getProject(scope: DbScope, id: string): Promise<Project | null> {
  if (!isUuid(id)) return null;
  const rows = await scope.query<RawProject>("SELECT * FROM projects WHERE id = $1", [id]);
  return rows[0] ? toProject(rows[0]) : null;
}

/** A workspace's projects, newest first. */
export async function listProjects(scope: DbScope, workspaceId: string): Promise<Project[]> {
  const rows = await scope.query<RawProject>(
    "SELECT * FROM projects WHERE workspace_id = $1 ORDER BY created_at DESC",
    [workspaceId],
  );
  return rows.map(toProject);
}

/** A directory name from a display name or URL: lowercase `[a-z0-9._-]`, at most 64 chars, never empty. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/\.git$/, "")
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 64);
  return slug || "project";
}

/** Project name from a git URL (`https://h/o/repo.git` → `repo`) or an archive file name. */
export function defaultProjectName(source: { gitUrl?: string; fileName?: string }): string {
  if (source.gitUrl) {
    const last = source.gitUrl.replace(/\/+$/, "").split("/").pop() ?? "";
    return last.replace(/\.git$/, "") || "project";
  }
  return (source.fileName ?? "project").replace(/\.(zip|tar\.gz|tgz|tar)$/i, "") || "project";
}

/**
 * Insert a project row with a free root path `/<slug>`, `/<slug>-2`, …
 * (serialised per workspace by an advisory lock).
 */
export async function insertProject(
  scope: DbScope,
  input: { workspaceId: string; name: string; source: unknown },
): Promise<Project> {
  return scope.transaction(async (q) => {
    await q("SELECT pg_advisory_xact_lock(hashtext($1))", [`strata:projects:${input.workspaceId}`]);
    const taken = new Set(
      (
        await q<{ root_path: string }>("SELECT root_path FROM projects WHERE workspace_id = $1", [
          input.workspaceId,
        ])
      ).map((r) => r.root_path),
    );
    const base = `/${slugify(input.name)}`;
    let root = base;
    for (let i = 2; taken.has(root); i++) root = `${base}-${i}`;
    const [row] = await q<RawProject>(
      "INSERT INTO projects (workspace_id, name, root_path, source) VALUES ($1, $2, $3, $4) RETURNING *",
      [input.workspaceId, input.name, root, JSON.stringify(input.source)],
    );
    return toProject(row);
  });
}

/** Delete a project row (its VFS files are removed by the caller). */
export async function deleteProjectRow(scope: DbScope, id: string): Promise<void> {
  await scope.query("DELETE FROM projects WHERE id = $1", [id]);
}

/** Longest project name accepted by {@link renameProject} (characters, after trimming; the import's limit too). */
export const MAX_PROJECT_NAME_LENGTH = 100;

/** A rename or delete of a project refused with a reason the user can act on (`code` for the API). */
export class ProjectRefusedError extends StrataError {
  declare readonly status: 400 | 404 | 409;
  constructor(status: 400 | 404 | 409, code: string, message: string) {
    super(status, code, message);
    this.name = "ProjectRefusedError";
  }
}

/**
 * The checked name for a rename: trimmed, without control characters (line breaks, tabs), 1 to
 * {@link MAX_PROJECT_NAME_LENGTH} characters.
 * @throws ProjectRefusedError 400 `bad_request`: "The project name must not be empty", "The project name must not
 *   contain line breaks or other control characters", "The project name is <n> characters long; the limit is 100".
 */
export function checkProjectName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw new ProjectRefusedError(400, "bad_request", "The project name must not be empty");
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw new ProjectRefusedError(
      400,
      "bad_request",
      "The project name must not contain line breaks or other control characters",
    );
  const length = [...trimmed].length;
  if (length > MAX_PROJECT_NAME_LENGTH)
    throw new ProjectRefusedError(
      400,
      "bad_request",
      `The project name is ${length} characters long; the limit is ${MAX_PROJECT_NAME_LENGTH}`,
    );
  return trimmed;
}

/**
 * Rename a project: only its display name changes; its directory (`rootPath`), files and sessions stay.
 * @returns the renamed project.
 * @throws ProjectRefusedError 400 (see {@link checkProjectName}), 404 `not_found` "Project <id> not found".
 */
export async function renameProject(scope: DbScope, id: string, name: string): Promise<Project> {
  const checked = checkProjectName(name);
  const rows = isUuid(id)
    ? await scope.query<RawProject>("UPDATE projects SET name = $2 WHERE id = $1 RETURNING *", [id, checked])
    : [];
  if (!rows[0]) throw new ProjectRefusedError(404, "not_found", `Project ${id} not found`);
  return toProject(rows[0]);
}

/** What {@link deleteProject} removed (row counts). */
export interface DeletedProject {
  id: string;
  name: string;
  rootPath: string;
  /** Sessions deleted (with their entries, runs, queues and pending paths). */
  sessions: number;
  /** VFS nodes deleted: the project directory, everything below it, its `.git` included. */
  files: number;
}

/**
 * Delete a project and everything that is only its, in one transaction: its sessions' shares (revoked first), every VFS node at or below its root
 * (files, folders, the git repository with every session's checkpoint branch), the trust decisions stored for
 * its directory and below, and the project row, whose foreign keys cascade to its sessions (their entries,
 * runs, queued messages and pending paths) and staged session uploads. The project and its sessions are
 * locked first, so no run starts meanwhile. The workspace's other projects are not touched.
 * @returns what was deleted.
 * @throws ProjectRefusedError 404 `not_found` "Project <id> not found"; 409 `project_running` "Project “<name>” has a
 *   run in progress in session <id>; stop it, then delete the project" when a session has a live run
 *   (heartbeat within `RUN_STALE_MS`).
 */
export async function deleteProject(scope: DbScope, id: string): Promise<DeletedProject> {
  if (!isUuid(id)) throw new ProjectRefusedError(404, "not_found", `Project ${id} not found`);
  return scope.transaction(async (q) => {
    const [row] = await q<RawProject>("SELECT * FROM projects WHERE id = $1 FOR UPDATE", [id]);
    if (!row) throw new ProjectRefusedError(404, "not_found", `Project ${id} not found`);
    const sessions = await q<{ id: string }>("SELECT id FROM sessions WHERE project_id = $1 FOR UPDATE", [
      id,
    ]);
    const [live] = await q<{ session_id: string }>(
      `SELECT r.session_id FROM session_runs r JOIN sessions s ON s.id = r.session_id
       WHERE s.project_id = $1 AND r.finished_at IS NULL
       AND r.heartbeat_at >= now() - ($2::int * interval '1 millisecond') LIMIT 1`,
      [id, RUN_STALE_MS],
    );
    if (live)
      throw new ProjectRefusedError(
        409,
        "project_running",
        `Project “${row.name}” has a run in progress in session ${live.session_id}; stop it, then delete the project`,
      );
    const root = row.root_path;
    const [files] = await q<{ n: number }>(
      `WITH d AS (DELETE FROM vfs_nodes WHERE workspace_id = $1 AND (path = $2 OR starts_with(path, $3))
       RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [row.workspace_id, root, `${root}/`],
    );
    await q("DELETE FROM project_trust WHERE workspace_id = $1 AND (dir = $2 OR starts_with(dir, $3))", [
      row.workspace_id,
      root,
      `${root}/`,
    ]);
    // Its sessions' shares are revoked first (docs/sharing.md): their rows RESTRICT the project's deletion.
    await q("DELETE FROM session_shares WHERE project_id = $1", [id]);
    await q("DELETE FROM projects WHERE id = $1", [id]);
    const project = toProject(row);
    return {
      id,
      name: project.name,
      rootPath: root,
      sessions: sessions.length,
      files: files?.n ?? 0,
    };
  });
}
