/**
 * Forking a point of a session with its files (docs/checkpoints.md): pi's `createBranchedSession` (the root→entry
 * path as a new session, each entry keeping its commit) and the new session's own working tree switched to that
 * point's commit; the source session's files are not touched. The switch is a restore of the new session, so it can
 * be undone.
 */
import { type ForkPosition, forkSession } from "@/lib/agent-session/session-tree";
import type { DbScope } from "@/lib/db/client";
import { getProject } from "@/lib/projects/projects";
import { entryCommit, recordRestore } from "@/lib/session/checkpoint-rows";
import { getSession, type SessionRow } from "@/lib/session/store";
import { resolveRef } from "@/lib/vfs/git";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { type EditorBuffer, switchFiles } from "./restore";

/** What {@link forkWithFiles} made. */
export interface ForkResult {
  session: SessionRow;
  /** `position: "before"`: the user message's text, for the new session's composer (pi's `/fork`). */
  editorText?: string;
  /** The files' restore on the new session (undo brings back the working tree as it was); absent without files. */
  restoreId?: string;
  /** Project-relative paths the switch wrote or deleted. */
  changed: string[];
}

/**
 * Fork session `sessionId` at `entryId` into a new session of the same project; with `files`, the new session's
 * working tree becomes the entry's commit. `buffers` (the editor's unsaved files) are not written: they belong to
 * the source session's working tree, which the fork leaves as it is.
 * @throws SessionNotFoundError, EntryNotFoundError; the file switch's VfsError (then the new session holds the path
 *   and the files are unchanged).
 */
export async function forkWithFiles(input: {
  scope: DbScope;
  sessionId: string;
  entryId: string;
  /** pi's fork cut (lib/agent-session/session-tree.ts `forkSession`); default `at`. */
  position?: ForkPosition;
  files: boolean;
  buffers?: EditorBuffer[];
  author: { name: string; email: string };
  userId: string | null;
}): Promise<ForkResult> {
  const { scope } = input;
  const source = await getSession(scope, input.sessionId);
  const { session: forked, editorText } = await forkSession(scope, input.sessionId, input.entryId, {
    position: input.position,
  });
  if (!input.files || !source) return { session: forked, editorText, changed: [] };
  const project = await getProject(scope, forked.projectId);
  const toCommit = forked.leafId ? await entryCommit(scope, forked.id, forked.leafId) : null;
  if (!project || !toCommit) return { session: forked, editorText, changed: [] };
  // The new session's own working tree is the main line as committed (`HEAD`; nothing copied, nothing to keep) and
  // becomes the point's files: only the paths that differ are written. Undoing the fork's restore gives main's files
  // back. The source session's working tree is not touched.
  const vfs = openSessionVfs(project, forked.id, scope).vfs;
  const main = await resolveRef(vfs, project.rootPath, "HEAD");
  const forkInput = { ...input, sessionId: forked.id, buffers: [], treeAt: main };
  const { changed } = await switchFiles(forkInput, project, forked.leafId, toCommit);
  const before = main;
  const row = await recordRestore(scope, forked.id, {
    mode: "files",
    fromLeafId: forked.leafId,
    fromCommit: before,
    toLeafId: forked.leafId,
    toCommit,
    userId: input.userId,
  });
  return { session: forked, editorText, restoreId: row.id, changed };
}
