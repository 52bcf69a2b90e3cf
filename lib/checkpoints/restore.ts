/**
 * `lib/checkpoints/`: session branches bound to file state (docs/checkpoints.md). It sits above `agent/` (it moves a
 * session's leaf with pi's `navigateTree`) and below `http/`: moving to another point of a session with its files
 * (restore, undo), the changes between two points (per turn, per tool call, the whole session), reverting a turn or
 * one file of it, and forking a point with its files. Every operation that changes files first keeps what the
 * working tree held as a commit, so nothing a user had is ever lost, and is itself undoable.
 *
 * This file: restores and their undo.
 */
import { commitWorkingTree, KEPT_MESSAGE, pointCommit } from "@/lib/agent-session/file-state";
import { EntryNotFoundError, navigateTree, SessionNotFoundError } from "@/lib/agent-session/session-tree";
import type { DbScope } from "@/lib/db/client";
import type { Env } from "@/lib/llm/models";
import { writeProjectFile } from "@/lib/projects/files";
import { getProject } from "@/lib/projects/projects";
import {
  entryCommit,
  getRestore,
  markRestoreUndone,
  type RestoreRow,
  recordCheckpoint,
  recordRestore,
} from "@/lib/session/checkpoint-rows";
import { appendEntry, branch, getSession, resetLeaf } from "@/lib/session/store";
import { VfsConflictError } from "@/lib/vfs/errors";
import { normalizePosix } from "@/lib/vfs/paths";
import { openSessionVfs } from "@/lib/vfs/workspace";
import { checkoutSnapshot, commitSnapshot } from "@/lib/vfs/worktree";
import { CheckpointError } from "./errors";

/** How a move treats the conversation and the files. */
export type RestoreMode = "both" | "conversation" | "files";

/** `customType` of the `custom` entry that records a file state set by a restore or a revert. */
export const CHECKPOINT_CUSTOM_TYPE = "strata.checkpoint";

/** An unsaved editor buffer to keep before files change: project-relative path and text. */
export interface EditorBuffer {
  path: string;
  content: string;
}

/** Input of {@link restoreSessionPoint}. */
export interface RestoreInput {
  scope: DbScope;
  sessionId: string;
  /** The point to move to; null = before the first entry (conversation) or the session's base (files). */
  entryId: string | null;
  mode: RestoreMode;
  /** Unsaved editor buffers, written to the working tree before it is kept. */
  buffers?: EditorBuffer[];
  /** Drop what the working tree holds beyond the leaf's commit instead of keeping it (an explicit choice). */
  discard?: boolean;
  /** Summarize the branch being left (conversation moves; pi `/tree` with a summary). */
  summarize?: boolean;
  customInstructions?: string;
  env: Env;
  signal?: AbortSignal;
  author: { name: string; email: string };
  userId: string | null;
  /** Files to move to instead of the entry's commit (an undo: the commit kept by the restore undone). */
  commit?: string | null;
  /** Where to move the leaf exactly (an undo), bypassing pi's user-message rule. */
  exactLeaf?: boolean;
}

/** What {@link restoreSessionPoint} did. */
export interface RestoreResult {
  leafId: string | null;
  /** A user message's text, back to the composer (pi `/tree`). */
  editorText?: string;
  /** The restore row (undo it with {@link undoRestore}); absent when nothing moved. */
  restoreId?: string;
  /** The commit kept of the working tree before the files changed (null: nothing to keep, or discarded). */
  keptCommit?: string | null;
  /** Project-relative paths the restore wrote or deleted. */
  changed: string[];
  /** The summary request was aborted: nothing changed. */
  aborted?: boolean;
}

/** Restore attempts when another writer keeps changing the working tree meanwhile. */
const MAX_ATTEMPTS = 5;

/**
 * The commit a restore moves the files to: `input.commit` when given (an undo), else the commit of entry
 * `input.entryId` (`entryCommit`; null without an entry: the session's base). A conversation-only move moves no files
 * (null), but its entry must exist all the same.
 * @throws EntryNotFoundError for an entry the session does not have (not checked when `input.commit` is given).
 */
async function targetCommit(input: RestoreInput): Promise<string | null> {
  const { scope, sessionId } = input;
  if (input.mode !== "conversation") {
    if (input.commit !== undefined) return input.commit;
    if (!input.entryId) return null;
    const found = await entryCommit(scope, sessionId, input.entryId);
    if (found === undefined) throw new EntryNotFoundError(input.entryId);
    return found;
  }
  if (input.entryId && (await entryCommit(scope, sessionId, input.entryId)) === undefined)
    throw new EntryNotFoundError(input.entryId);
  return null;
}

/**
 * Move session `sessionId` to point `entryId` (docs/checkpoints.md, "Moving between points"). Call it holding the
 * session's run lock (`withSessionRun`). With files: buffers are written, the working tree's difference from the
 * leaf's commit is kept as a commit (`kind: kept`, unless `discard`), then the working tree becomes the target's
 * commit in one flush; a concurrent writer's change makes it start again (so that change is kept too).
 * @throws SessionNotFoundError, EntryNotFoundError; NoModelError / SummarizationError from a summarized move;
 *   VfsError (EEXIST: an untracked file the target would overwrite; EFBIG) with nothing changed.
 */
export async function restoreSessionPoint(input: RestoreInput): Promise<RestoreResult> {
  const { scope, sessionId } = input;
  const session = await getSession(scope, sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  const project = await getProject(scope, session.projectId);
  if (!project) throw new SessionNotFoundError(sessionId);
  const fromLeaf = session.leafId;
  const toCommit = await targetCommit(input);

  // Files first (nothing of the conversation moves if they cannot), then the conversation.
  let kept: string | null = null;
  let changed: string[] = [];
  if (input.mode !== "conversation") {
    const files = await switchFiles(input, project, fromLeaf, toCommit);
    kept = files.kept;
    changed = files.changed;
  }
  let leafId = fromLeaf;
  let editorText: string | undefined;
  if (input.mode !== "files") {
    if (input.exactLeaf) {
      if (input.entryId === null) await resetLeaf(scope, sessionId);
      else await branch(scope, sessionId, input.entryId);
      leafId = input.entryId;
    } else {
      const moved = await navigateTree({
        scope,
        sessionId,
        targetId: input.entryId ?? "",
        summarize: input.summarize,
        customInstructions: input.customInstructions,
        env: input.env,
        signal: input.signal,
      });
      if (moved.aborted) return { leafId: fromLeaf, changed, keptCommit: kept, aborted: true };
      leafId = moved.leafId;
      editorText = moved.editorText;
    }
  }
  // Files only: the leaf now stands on other files; a `custom` entry records them (not part of the model's context).
  // (After a move of both, the next run records any difference as the user's checkpoint.)
  if (
    input.mode === "files" &&
    toCommit &&
    (await pointCommit(scope, target(input, project), leafId)) !== toCommit
  ) {
    const entry = await appendEntry(
      scope,
      sessionId,
      {
        type: "custom",
        customType: CHECKPOINT_CUSTOM_TYPE,
        data: { kind: "restore", commit: toCommit, fromEntryId: input.entryId },
      },
      { commit: toCommit },
    );
    leafId = entry.id;
  }
  if (leafId === fromLeaf && changed.length === 0 && kept === null)
    return { leafId, changed, keptCommit: kept, editorText };
  const row = await recordRestore(scope, sessionId, {
    mode: input.mode,
    fromLeafId: fromLeaf,
    fromCommit:
      kept ??
      (input.mode === "conversation" ? null : await pointCommit(scope, target(input, project), fromLeaf)),
    toLeafId: leafId,
    toCommit,
    userId: input.userId,
  });
  return { leafId, editorText, restoreId: row.id, keptCommit: kept, changed };
}

function target(
  input: { scope: DbScope; sessionId: string },
  project: { workspaceId: string; rootPath: string },
) {
  return {
    vfs: openSessionVfs(project, input.sessionId, input.scope).vfs,
    root: project.rootPath,
    session: { id: input.sessionId },
  };
}

/**
 * The file half of a restore: buffers written, the working tree kept as a commit on session `input.sessionId`'s
 * point `fromLeaf` (unless `discard`), then checked out to `toCommit`, in one flush, started again on a concurrent
 * write. @returns the kept commit (null: nothing kept) and the project-relative paths changed.
 */
export async function switchFiles(
  input: Pick<RestoreInput, "scope" | "sessionId" | "buffers" | "discard" | "author" | "userId"> & {
    /**
     * The commit the working tree is known to hold (a new session's tree is the main line's `HEAD`): nothing is kept
     * and the tree is not read to find out what it holds.
     */
    treeAt?: string | null;
  },
  project: { workspaceId: string; rootPath: string },
  fromLeaf: string | null,
  toCommit: string | null,
): Promise<{ kept: string | null; changed: string[] }> {
  const root = normalizePosix(project.rootPath);
  for (let attempt = 1; ; attempt++) {
    // A fresh VFS per attempt: a failed flush leaves the old one's cache behind.
    const t = target(input, project);
    const { vfs } = t;
    try {
      const base = await pointCommit(input.scope, t, fromLeaf);
      // The working tree as a commit: what is kept (the checkout then starts from exactly what the tree holds). The
      // files as stored first, then the editor's unsaved buffers on top, so a buffer never hides another writer's
      // change. Discarding, the commits are made all the same but not kept: no checkpoint row, not offered anywhere.
      const keep = (on: string | null) =>
        commitWorkingTree(t, {
          scope: input.scope,
          base: on,
          kind: "kept",
          message: KEPT_MESSAGE,
          author: input.author,
          userId: input.userId,
          flush: false,
        });
      const known = input.treeAt !== undefined;
      const stored = known ? null : await keep(base);
      // As the editor's own save (PUT …/file): never into `.git`, never through a symlink out of the project.
      for (const b of input.buffers ?? []) await writeProjectFile(vfs, root, b.path, b.content);
      const buffered = input.buffers?.length ? await keep(stored?.oid ?? base) : null;
      const keptCommit = buffered ?? stored;
      const keptRows = [
        ...(stored ? [{ ...stored, parent: base }] : []),
        ...(buffered ? [{ ...buffered, parent: stored?.oid ?? base }] : []),
      ];
      const current = await commitSnapshot(
        vfs,
        root,
        known ? (input.treeAt ?? null) : (keptCommit?.oid ?? base),
      );
      const wanted = await commitSnapshot(vfs, root, toCommit);
      const changes = await checkoutSnapshot(vfs, root, current, wanted);
      await vfs.flush();
      if (!input.discard)
        for (const k of keptRows)
          await recordCheckpoint(input.scope, input.sessionId, {
            commitOid: k.oid,
            parentOid: k.parent,
            kind: "kept",
            paths: k.paths,
            authorUserId: input.userId,
          });
      return { kept: input.discard ? null : (keptCommit?.oid ?? null), changed: changes.map((c) => c.path) };
    } catch (error) {
      if (error instanceof VfsConflictError && attempt < MAX_ATTEMPTS) continue;
      throw error;
    }
  }
}

/**
 * Undo restore `restoreId` of the session: move back to where it came from — its leaf exactly and the files it kept
 * — as a new restore (so the undo can be undone too). The working tree is kept first, like any restore.
 * @throws RestoreNotFoundError; the errors of {@link restoreSessionPoint}.
 */
export async function undoRestore(
  input: Omit<RestoreInput, "entryId" | "mode" | "commit" | "exactLeaf"> & { restoreId: string },
): Promise<RestoreResult & { undone: RestoreRow }> {
  const row = await getRestore(input.scope, input.sessionId, input.restoreId);
  if (!row) throw new RestoreNotFoundError(input.restoreId);
  // Once is what "undo" means: a second undo of the same restore (a stale tab) would move the session back again over
  // whatever was done since. The undo itself is a restore and can be undone.
  if (row.undoneBy)
    throw new CheckpointError(
      409,
      "already_undone",
      `Restore ${row.id} was already undone (by restore ${row.undoneBy}). Undo that one to go back.`,
    );
  const result = await restoreSessionPoint({
    ...input,
    entryId:
      row.mode === "files"
        ? ((await getSession(input.scope, input.sessionId))?.leafId ?? null)
        : row.fromLeafId,
    mode: row.mode,
    exactLeaf: true,
    ...(row.mode !== "conversation" ? { commit: row.fromCommit } : {}),
  });
  if (result.restoreId) await markRestoreUndone(input.scope, input.sessionId, row.id, result.restoreId);
  return { ...result, undone: row };
}

/** `Restore <id> not found`, answered 404. */
export class RestoreNotFoundError extends CheckpointError {
  constructor(id: string) {
    super(404, "not_found", `Restore ${id} not found`);
    this.name = "RestoreNotFoundError";
  }
}
