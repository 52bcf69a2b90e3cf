/**
 * Forking a share (docs/sharing.md, "Fork"): a signed-in viewer copies a share into a workspace they can write (their
 * personal one by default). The shared files (when the share has them) become a new project whose history starts at
 * one commit holding exactly those files, authored by the forking user with the message `Forked from shared session
 * "<title>"`; without files, a new empty project. The shared path becomes a new session of that project (cwd = the
 * project's root) with every entry bound to that commit, so checkpoints and restore work from the first turn. The
 * share's owner's workspace is never read or written: everything comes from the share's own rows. Edge-safe.
 */
import { authorizeWorkspace } from "@/lib/access/authorize";
import type { Caller } from "@/lib/auth/caller";
import type { DbScope } from "@/lib/db/client";
import { isDbTrouble } from "@/lib/db/errors";
import { TransactionScope } from "@/lib/db/tx-scope";
import { insertProject, MAX_PROJECT_NAME_LENGTH, type Project } from "@/lib/projects/projects";
import { CURRENT_SESSION_VERSION, type SessionHeader } from "@/lib/session/entries";
import { insertImportedSession, type SessionRow } from "@/lib/session/store";
import { commitAll, initRepository } from "@/lib/vfs/git";
import { pathNameProblem, quoteName } from "@/lib/vfs/names";
import { isInsideRoot, normalizePosix } from "@/lib/vfs/paths";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
import { ShareError } from "./errors";
import { isShareablePath } from "./paths";
import { BIDI_CONTROLS_ALL } from "./render/unicode";
import { readSharedFiles, type ShareRow } from "./store";

/**
 * The commit message of a fork's first commit: `Forked from shared session "<title>"`, and when the share redacted
 * files' contents, a body naming each (sorted) so the fork says which files are not as their author wrote them; then
 * the shared files not copied because of their name (`notCopied`: path and why, see {@link uncopyableFiles}).
 */
export function forkCommitMessage(
  title: string,
  redactedFiles: readonly string[] = [],
  notCopied: readonly { path: string; reason: string }[] = [],
): string {
  const subject = `Forked from shared session "${title}"`;
  const body: string[] = [];
  if (redactedFiles.length > 0)
    body.push(
      `Redacted before sharing (secrets replaced by [redacted:<kind>]):\n${redactedFiles.map((p) => `- ${p}`).join("\n")}\n`,
    );
  if (notCopied.length > 0)
    body.push(
      `Not copied (names Strata does not create):\n${notCopied.map((f) => `- ${quoteName(f.path)}: ${f.reason}`).join("\n")}\n`,
    );
  return body.length === 0 ? subject : `${subject}\n\n${body.join("\n")}`;
}

/**
 * The shared files (project-relative paths) whose name the one name rule refuses (lib/vfs/names.ts; stored by an
 * older Strata): the fork does not write them. @returns path and the rule's words, in the order given.
 */
export function uncopyableFiles(paths: Iterable<string>): { path: string; reason: string }[] {
  const out: { path: string; reason: string }[] = [];
  for (const path of paths) {
    const problem = pathNameProblem(path);
    if (problem) out.push({ path, reason: problem.reason });
  }
  return out;
}

/** The shared files whose contents the share redacted (line 0 is a file's name: not its contents), sorted. */
export function redactedFilePaths(redactions: ShareRow["snapshot"]["redactions"]): string[] {
  const paths = new Set<string>();
  for (const r of redactions) if (r.site.kind === "file" && r.site.line > 0) paths.add(r.site.path);
  return [...paths].sort();
}

/**
 * Fork `share` for `caller` into `target.workspaceId` (default: the caller's personal workspace) as a new project
 * named `target.name` (default: the share's title without control or bidi control characters, at most 100
 * characters; the fork route refuses a given name holding either) holding the shared files, and a new session
 * holding the shared path.
 *
 * **All or nothing.** The project row, its files and git objects, the session and every entry are written in one
 * database transaction (`TransactionScope`): should any step fail — a statement, the VFS, git, or the connection for
 * longer than the retry budget — none of it exists (no project in the caller's list, no orphan files, no session). A
 * dropped connection re-runs the whole fork on a new one (exactly once as seen by the database). The workspace's
 * project-name lock is held until the fork commits.
 * @returns the new project and session.
 * @throws AuthError 404 / 403 when the caller may not write the target workspace; DbBusyError / DbUnavailableError
 *   (503, nothing written); ShareError 500 `fork_failed` for any other failure (nothing written).
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
  // Only relative paths without `..`, `.git` or control characters are written (the same predicate as the preview's),
  // and none with a name the VFS refuses to create (old data): those are named in the commit message.
  const shared = Object.entries(share.includeFiles ? await readSharedFiles(scope, share.id) : {}).filter(
    ([p]) => isShareablePath(p),
  );
  const notCopied = uncopyableFiles(shared.map(([p]) => p));
  const refused = new Set(notCopied.map((f) => f.path));
  const files = Object.fromEntries(shared.filter(([p]) => !refused.has(p)));
  const modes = new Map((share.snapshot.files ?? []).map((f) => [f.path, f.mode]));
  try {
    // Everything below may run again after a dropped connection: each run starts from nothing (a fresh Vfs).
    return await scope.transaction(async (q) => {
      const tx = new TransactionScope(q);
      const project = await insertProject(tx, { workspaceId, name, source: null });
      const message = forkCommitMessage(share.title, redactedFilePaths(share.snapshot.redactions), notCopied);
      const commit = await writeFiles(tx, project, files, modes, caller, message);
      const header: SessionHeader = {
        type: "session",
        version: CURRENT_SESSION_VERSION,
        id: share.snapshot.header.id,
        timestamp: new Date().toISOString(),
        cwd: project.rootPath,
      };
      const session = await insertImportedSession(tx, project.id, header, share.snapshot.entries, {
        userId: caller.userId,
        title: share.title,
        commitOid: commit,
      });
      return { project, session };
    });
  } catch (error) {
    if (isDbTrouble(error)) throw error;
    throw new ShareError(
      500,
      "fork_failed",
      "The fork could not be completed, so nothing was created (no project, no session). Fork the share again; if it keeps failing, report it.",
      { cause: error },
    );
  }
}

/**
 * Write the shared files into the new project's directory (on `tx`, the fork's transaction) as its first commit.
 * @returns the commit's oid.
 */
async function writeFiles(
  tx: DbScope,
  project: Project,
  files: Record<string, string>,
  modes: ReadonlyMap<string, string>,
  caller: Caller,
  message: string,
): Promise<string> {
  const { vfs } = openWorkspaceVfs(project.workspaceId, tx);
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
  const commit = await commitAll(vfs, project.rootPath, {
    message,
    author: { name: caller.name || caller.email, email: caller.email },
  });
  await vfs.flush();
  return commit;
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
