/**
 * Creating a project from a git URL (smart HTTP clone) or an uploaded archive. A clone is flushed only
 * when it succeeded; an archive is written in bounded batches by `importArchive`, which deletes what it
 * flushed when it fails. On failure the project row is removed and nothing of it remains.
 */
import git, { type HttpClient } from "isomorphic-git";
import { DbScope } from "@/lib/db/client";
import type { ExecClient } from "@/lib/exec/client";
import type { ExecKill, ImportExecAnswer } from "@/lib/exec/types";
import { VfsConflictError } from "@/lib/vfs/errors";
import { cloneRepository } from "@/lib/vfs/git";
import { withoutCredentials } from "@/lib/vfs/git-clone";
import { createGitFs } from "@/lib/vfs/git-fs";
import { type ImportReport, importArchive } from "@/lib/vfs/import";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { defaultProjectName, deleteProjectRow, insertProject, type Project } from "./projects";

export { withoutCredentials };

/** The git transport, or a programming error: a user's URL never goes through the unguarded default client. */
function requireGitHttp(http: HttpClient | undefined): HttpClient {
  if (!http)
    throw new TypeError("importProject: a git source needs options.gitHttp (see lib/net/git-http.ts)");
  return http;
}

export type ProjectSource =
  | { kind: "git"; url: string; ref?: string }
  | { kind: "archive"; fileName: string; bytes: Uint8Array };

/**
 * Import a project into `workspaceId`. A git clone goes through `options.gitHttp`, the transport that decides what
 * the URL may reach: the route passes `createGitImportHttp(gitImportPolicy(env))` (`lib/net/git-http.ts`, public
 * addresses only unless STRATA_GIT_IMPORT_ALLOW_PRIVATE). A git source without one is refused (fail closed).
 * With `options.executor` an archive is unpacked by the execution service (`/v1/import`, off this event
 * loop) with the same code, limits and messages as in process (`importArchive`), which is the path without it;
 * `options.userId` (the importing user) is its tenant's user there, with `workspaceId`.
 * @returns the project and what was imported (archive imports list skipped entries with reasons).
 * @throws Error with a clear message when the clone or the archive fails (nothing is kept).
 */
export async function importProject(
  scope: DbScope,
  workspaceId: string,
  source: ProjectSource,
  name?: string,
  options: { gitHttp?: HttpClient; executor?: Pick<ExecClient, "importArchive">; userId?: string } = {},
): Promise<{ project: Project; report: ImportReport }> {
  const gitHttp = source.kind === "git" ? requireGitHttp(options.gitHttp) : undefined;
  const displayName =
    name?.trim() ||
    defaultProjectName(source.kind === "git" ? { gitUrl: source.url } : { fileName: source.fileName });
  const project = await insertProject(scope, {
    workspaceId,
    name: displayName,
    source:
      source.kind === "git"
        ? { kind: "git", url: withoutCredentials(source.url) }
        : { kind: "archive", fileName: source.fileName },
  });
  const vfsScope = new DbScope();
  try {
    const { vfs } = openWorkspaceVfs(workspaceId, vfsScope);
    let report: ImportReport;
    if (source.kind === "git") {
      await cloneRepository(vfs, project.rootPath, source.url, {
        ref: source.ref,
        http: gitHttp,
      });
      if (withoutCredentials(source.url) !== source.url) {
        await git.setConfig({
          fs: createGitFs(vfs),
          dir: project.rootPath,
          path: "remote.origin.url",
          value: withoutCredentials(source.url),
        });
      }
      const files = await vfs.walk(project.rootPath, { skip: (p) => p === `${project.rootPath}/.git` });
      const regular = files.filter((f) => f.stat.kind !== "dir");
      report = { files: regular.length, bytes: regular.reduce((n, f) => n + f.stat.size, 0), skipped: [] };
    } else if (options.executor) {
      report = await importInService(
        options.executor,
        vfsScope,
        { workspaceId, userId: options.userId },
        project.rootPath,
        source,
      );
    } else {
      report = await importArchive(vfs, project.rootPath, source.bytes, source.fileName);
    }
    await vfs.flush();
    return { project, report };
  } catch (error) {
    await deleteProjectRow(scope, project.id);
    throw error;
  } finally {
    await vfsScope.release();
  }
}

/**
 * `importArchive` run by the execution service. The service removes what a failed import wrote; when it could
 * not (its worker was stopped at a limit, or the connection dropped mid-import) a directory that did not exist
 * before is removed here (one statement), so nothing half-imported remains either way.
 * @throws the import's error with its own name and message (a `VfsConflictError` as one); the client's
 *   ExecUnavailableError / ExecRequestError (e.g. `Command stopped: …` when the service stopped it at a limit).
 */
async function importInService(
  executor: Pick<ExecClient, "importArchive">,
  scope: DbScope,
  tenant: { workspaceId: string; userId?: string },
  root: string,
  source: { fileName: string; bytes: Uint8Array },
): Promise<ImportReport> {
  const { workspaceId } = tenant;
  const existed = await openWorkspaceVfs(workspaceId, scope).vfs.exists(root);
  // Stopped at a limit or unreachable mid-import, the service may not have cleaned up: a directory that did not
  // exist before goes. A fresh VFS: the rows the service wrote are in no cache of this process.
  const removeWritten = async () => {
    const after = openWorkspaceVfs(workspaceId, scope).vfs;
    if (!existed && (await after.exists(root))) await after.removeTree(root);
  };
  let answer: ImportExecAnswer | { killed?: ExecKill };
  try {
    answer = await executor.importArchive<ImportExecAnswer | { killed?: ExecKill }>(
      { workspaceId, ...(tenant.userId ? { userId: tenant.userId } : {}), root, fileName: source.fileName },
      source.bytes,
    );
  } catch (error) {
    await removeWritten();
    throw error;
  }
  if ("report" in answer) return answer.report;
  if (!("failure" in answer)) {
    await removeWritten();
    throw new Error(answer.killed?.message ?? "The execution service sent no import report");
  }
  const { name, message, paths } = answer.failure;
  if (name === "VfsConflictError" && paths) throw new VfsConflictError(paths);
  throw Object.assign(new Error(message), { name });
}
