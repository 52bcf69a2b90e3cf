/**
 * `POST /v1/import` of the execution service: unpack an uploaded archive into a project directory of a
 * workspace VFS — plan, inflate, write, hash, commit and flush, the CPU-heavy part of `POST /api/projects`
 * — here, in a worker of the service, instead of on the app's event loop. The work is exactly the app's
 * in-process path (`importArchive` of lib/vfs/import.ts, then one flush), so every limit, skip reason and
 * refusal message is the same; only where it runs differs.
 *
 * Node-only (lib/exec/service/): the worker opens its own Postgres connection from `DATABASE_URL`.
 */
import { DbScope } from "@/lib/db/client";
import type { ImportExecRequest, ImportExecResult } from "@/lib/exec/types";
import { importArchive } from "@/lib/vfs/import";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";

/** Why an import failed, as sent back to the app: the error's name and message (and a conflict's paths). */
export interface ImportFailure {
  name: string;
  message: string;
  /** `VfsConflictError`'s paths, so the app can rethrow it as one. */
  paths?: string[];
}

/**
 * Parse the query of `POST /v1/import`: `workspaceId`, `root` (absolute VFS path) and `fileName`.
 * @throws Error "POST /v1/import needs the query parameter <name>" when one is missing or empty;
 *   "…: root must be an absolute VFS path" when `root` does not start with "/".
 */
export function importRequestOf(query: URLSearchParams): ImportExecRequest {
  const get = (name: string) => {
    const value = query.get(name);
    if (!value) throw new Error(`POST /v1/import needs the query parameter ${name}`);
    return value;
  };
  const request = { workspaceId: get("workspaceId"), root: get("root"), fileName: get("fileName") };
  if (!request.root.startsWith("/"))
    throw new Error(`POST /v1/import: root must be an absolute VFS path (got ${request.root})`);
  return request;
}

/**
 * Import `archive` (the upload's bytes, named `request.fileName`) into `request.root` of the workspace's VFS
 * on a connection of its own, and flush it: `importArchive` (which removes what it wrote when it fails).
 * @returns the import report `{ files, bytes, skipped }`.
 * @throws whatever `importArchive` throws (ArchiveRefusedError, "Not a valid .zip archive: …", "Cannot
 *   import into …", a database error), unchanged.
 */
export async function runImport(request: ImportExecRequest, archive: Uint8Array): Promise<ImportExecResult> {
  const scope = new DbScope();
  try {
    const { vfs } = openWorkspaceVfs(request.workspaceId, scope);
    const report = await importArchive(vfs, request.root, archive, request.fileName);
    await vfs.flush();
    return report;
  } finally {
    await scope.release();
  }
}

/** An error of `runImport` as JSON for the app (see `ImportFailure`). */
export function importFailureOf(error: unknown): ImportFailure {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const paths = (error as { paths?: unknown }).paths;
  return {
    name: error.name,
    message: error.message,
    ...(Array.isArray(paths) ? { paths: paths.map(String) } : {}),
  };
}
