/** Saving and reading the files of a session's working tree or of main, for the merge tests (both directions). */

import type { DbScope } from "@/lib/db/client";
import { createSession, type SessionRow } from "@/lib/session/store";
import { openMainVfs, openSessionVfs } from "@/lib/vfs/workspace";
import type { SessionFixture } from "../../helpers/session-fixture";

/** Writes `files` (project-relative path → text) to session `sessionId`'s working tree, as an editor save does. */
export async function save(
  f: SessionFixture,
  sessionId: string,
  files: Record<string, string>,
): Promise<void> {
  const { vfs, scope } = openSessionVfs(f.project, sessionId);
  try {
    for (const [p, text] of Object.entries(files)) await vfs.writeFile(`${f.project.rootPath}/${p}`, text);
    await vfs.flush();
  } finally {
    await scope.release();
  }
}

/** The text of `rel` in session `sessionId`'s working tree (null: main's), or null when it does not exist. */
export async function fileOf(
  f: SessionFixture,
  sessionId: string | null,
  rel: string,
): Promise<string | null> {
  const { vfs, scope } = sessionId
    ? openSessionVfs(f.project, sessionId)
    : openMainVfs(f.project.workspaceId, { projectId: f.project.id, root: f.project.rootPath });
  try {
    return await vfs.readText(`${f.project.rootPath}/${rel}`).catch(() => null);
  } finally {
    await scope.release();
  }
}

/** A new session titled `title` in the fixture's project. */
export const newSession = (scope: DbScope, f: SessionFixture, title: string): Promise<SessionRow> =>
  createSession(scope, { projectId: f.project.id, cwd: f.project.rootPath, title });
