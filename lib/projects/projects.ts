/** Projects: directories of a workspace VFS, each its own git repository. */

import type { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";

export interface Project {
  id: string;
  workspaceId: string;
  name: string;
  /** Absolute VFS path of the project directory, e.g. "/strata". */
  rootPath: string;
  createdAt: string;
}

interface RawProject {
  id: string;
  workspace_id: string;
  name: string;
  root_path: string;
  created_at: Date | string;
}

function toProject(r: RawProject): Project {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    name: r.name,
    rootPath: r.root_path,
    createdAt: new Date(r.created_at).toISOString(),
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
