/**
 * Forking a share (docs/sharing.md, "Fork"): a signed-in viewer copies a share into a workspace they can write (their
 * personal one by default). The shared files (when the share has them) become a new project whose history starts at
 * one commit holding exactly those files, authored by the forking user with the message `Forked from shared session
 * "<title>"`; without files, a new empty project. The shared path becomes a new session of that project (cwd = the
 * project's root) with every entry bound to that commit, so checkpoints and restore work from the first turn. The
 * share's owner's workspace is never read or written: everything comes from the share's own rows. Edge-safe.
 */
import { authorizeWorkspace } from "@/lib/auth/authorize";
import type { Caller } from "@/lib/auth/caller";
import { DbScope } from "@/lib/db/client";
import {
  deleteProjectRow,
  insertProject,
  MAX_PROJECT_NAME_LENGTH,
  type Project,
} from "@/lib/projects/projects";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "@/lib/session/entries";
import { insertImportedSession, type SessionRow } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { isShareablePath } from "./paths";
import { BIDI_CONTROLS_ALL } from "./render/unicode";
import { readSharedFiles, type ShareRow } from "./store";

/** The commit message of a fork's first commit. */
export const forkCommitMessage = (title: string) => `Forked from shared session "${title}"`;

/**
 * Fork `share` for `caller` into `target.workspaceId` (default: the caller's personal workspace) as a new project
 * named `target.name` (default: the share's title without control or bidi control characters, at most 100
 * characters; the fork route refuses a given name holding either) holding the shared files, and a new session
 * holding the shared path.
 * @returns the new project and session.
 * @throws AuthError 404 / 403 when the caller may not write the target workspace; the VFS's and git's errors (the new
 *   project row is removed again).
 */
export async function forkShare(
  scope: DbScope,
  caller: Caller,
  share: ShareRow,
  target: { workspaceId?: string; name?: string },
): Promise<{ project: Project; session: SessionRow }> {
  const workspaceId = target.workspaceId ?? (await personalWorkspace(scope, caller.userId));
  await authorizeWorkspace(scope, caller, workspaceId, "write");
  const name = [
    ...(target.name?.trim() ||
      share.title
        .replace(/[\u0000-\u001f\u007f]/g, " ")
        .replace(BIDI_CONTROLS_ALL, "")
        .trim() ||
      "Shared session"),
  ]
    .slice(0, MAX_PROJECT_NAME_LENGTH)
    .join("");
  // Only relative paths without `..`, `.git` or control characters are written (the same predicate as the preview's).
  const files = Object.fromEntries(
    Object.entries(share.includeFiles ? await readSharedFiles(scope, share.id) : {}).filter(([p]) =>
      isShareablePath(p),
    ),
  );
  const modes = new Map((share.snapshot.files ?? []).map((f) => [f.path, f.mode]));
  const project = await insertProject(scope, { workspaceId, name, source: null });
  const vfsScope = new DbScope();
  let commit: string;
  try {
    const { vfs } = openWorkspaceVfs(workspaceId, vfsScope);
    await initRepository(vfs, project.rootPath);
    for (const [path, text] of Object.entries(files)) {
      const abs = `${project.rootPath}/${path}`;
      const dir = abs.slice(0, abs.lastIndexOf("/"));
      if (dir !== project.rootPath) await vfs.mkdir(dir, { recursive: true });
      const mode = modes.get(path);
      // A link stays a link only when it resolves inside the new project; any other becomes a file holding its target.
      if (
        mode === "120000" &&
        !text.startsWith("/") &&
        isInsideRoot(project.rootPath, normalizePosix(`${dir}/${text}`))
      )
        await vfs.symlink(text, abs);
      else await vfs.writeFile(abs, text, { mode: mode === "100755" ? 0o755 : 0o644 });
    }
    commit = await commitAll(vfs, project.rootPath, {
      message: forkCommitMessage(share.title),
      author: { name: caller.name || caller.email, email: caller.email },
    });
    await vfs.flush();
  } catch (error) {
    await openWorkspaceVfs(workspaceId, vfsScope)
      .vfs.removeTree(project.rootPath)
      .catch(() => undefined);
    await deleteProjectRow(scope, project.id);
    throw error;
  } finally {
    await vfsScope.release();
  }
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: share.snapshot.header.id,
    timestamp: new Date().toISOString(),
    cwd: project.rootPath,
  };
  const session = await insertImportedSession(scope, project.id, header, share.snapshot.entries, {
    userId: caller.userId,
    title: share.title,
    commitOid: commit,
  });
  return { project, session };
}

/** The caller's personal workspace id (one query; every account gets one at sign-up). */
async function personalWorkspace(scope: DbScope, userId: string): Promise<string> {
  const [row] = await scope.query<{ id: string }>(
    "SELECT id FROM workspaces WHERE owner_user_id = $1 AND kind = 'personal' ORDER BY created_at LIMIT 1",
    [userId],
  );
  if (!row) throw new Error(`User ${userId} has no personal workspace`);
  return row.id;
}
