/**
 * Creating a project from a git URL (smart HTTP clone) or an uploaded archive. A clone is flushed only
 * when it succeeded; an archive is written in bounded batches by `importArchive`, which deletes what it
 * flushed when it fails. On failure the project row is removed and nothing of it remains.
 */
import git, { type HttpClient } from "isomorphic-git";
import { DbScope } from "@/lib/db/client";
import { cloneRepository } from "@/lib/vfs/git";
import { createGitFs } from "@/lib/vfs/git-fs";
import { type ImportReport, importArchive } from "@/lib/vfs/import";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { defaultProjectName, deleteProjectRow, insertProject, type Project } from "./projects";

/** A URL without user info (credentials are used for the clone only, never stored). Unparsable input is returned as is. */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return url;
  }
}

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
 * @returns the project and what was imported (archive imports list skipped entries with reasons).
 * @throws Error with a clear message when the clone or the archive fails (nothing is kept).
 */
export async function importProject(
  scope: DbScope,
  workspaceId: string,
  source: ProjectSource,
  name?: string,
  options: { gitHttp?: HttpClient } = {},
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
