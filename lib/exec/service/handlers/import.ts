/**
 * `POST /v1/import` of the execution service: unpack an uploaded archive into a project directory of a
 * workspace VFS — plan, inflate, write, hash, commit and flush, the CPU-heavy part of `POST /api/projects`
 * — here, in a worker of the service, instead of on the app's event loop. The work is exactly the app's
 * in-process path (`importArchive` of lib/vfs/import.ts, then one flush), so every limit, skip reason and
 * refusal message is the same; only where it runs differs.
 *
 * Wire: `POST /v1/import?workspaceId=…&root=…&fileName=…`, body the archive's bytes (`application/octet-stream`);
 * the answer (200) is an `ImportExecAnswer`: `{ report }`, or `{ failure: { name, message, paths? } }` when the
 * import failed (nothing of it kept). A bad query answers 400. Stopped at a limit (the pool terminates the worker
 * mid-import), the pool answers its `killed` report and the app removes what was written (lib/projects/import.ts).
 *
 * Node-only (lib/exec/service/): the worker opens its own Postgres connection from `DATABASE_URL`.
 */
import { DbScope } from "@/lib/db/client";
import type { ImportExecAnswer, ImportExecRequest, ImportExecResult } from "@/lib/exec/types";
import { importArchive } from "@/lib/vfs/import";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import type { ExecHandler } from "../handler";
import { HandlerError } from "../handler";

/** Why an import failed, as sent back to the app (see `ImportExecAnswer`). */
export type ImportFailure = Extract<ImportExecAnswer, { failure: unknown }>["failure"];

/**
 * The request of `POST /v1/import` from its query parameters: `workspaceId`, `root` (absolute VFS path), `fileName`.
 * @throws HandlerError 400 "POST /v1/import needs the query parameter <name>" when one is missing or empty;
 *   "POST /v1/import: root must be an absolute VFS path (got <root>)".
 */
export function importRequestOf(query: Record<string, unknown>): ImportExecRequest {
  const get = (name: string) => {
    const value = query[name];
    if (typeof value !== "string" || !value)
      throw new HandlerError(`POST /v1/import needs the query parameter ${name}`, 400);
    return value;
  };
  const request = { workspaceId: get("workspaceId"), root: get("root"), fileName: get("fileName") };
  if (!request.root.startsWith("/"))
    throw new HandlerError(`POST /v1/import: root must be an absolute VFS path (got ${request.root})`, 400);
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

/** `POST /v1/import`: the query's request and the body's archive through `runImport`; a failure is an answer. */
export const handler: ExecHandler<Record<string, unknown>, ImportExecAnswer> = {
  async run(query, ctx) {
    const request = importRequestOf(query ?? {});
    if (!ctx.bytes)
      throw new HandlerError("POST /v1/import needs the archive as an application/octet-stream body", 400);
    try {
      return { report: await runImport(request, ctx.bytes) };
    } catch (error) {
      return { failure: importFailureOf(error) };
    }
  },
};
