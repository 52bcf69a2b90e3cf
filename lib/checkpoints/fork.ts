/**
 * Forking a point of a session with its files (docs/checkpoints.md): pi's `createBranchedSession` (the root→entry
 * path as a new session, each entry keeping its commit) and the working tree switched to that point's commit, what it
 * held first kept on the source session's branch. The switch is a restore of the new session, so it can be undone.
 */
import { pointCommit } from "@/lib/agent-session/file-state";
import { type ForkPosition, forkSession } from "@/lib/agent-session/session-tree";
import type { DbScope } from "@/lib/db/client";
import { getProject } from "@/lib/projects/projects";
import { entryCommit, recordRestore } from "@/lib/session/checkpoint-rows";
import { getSession, type SessionRow } from "@/lib/session/store";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";
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
 * Fork session `sessionId` at `entryId` into a new session of the same project; with `files`, the working tree
 * becomes the entry's commit (buffers and the working tree kept first on the source's leaf).
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
  const { kept, changed } = await switchFiles(input, project, source.leafId, toCommit);
  const before =
    kept ??
    (await pointCommit(
      scope,
      { vfs: openWorkspaceVfs(project.workspaceId, scope).vfs, root: project.rootPath, session: source },
      source.leafId,
    ));
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
