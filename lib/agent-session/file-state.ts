/**
 * The file state a session point stands on (docs/checkpoints.md): the commit of a leaf, and committing what the
 * working tree holds beyond a commit as a checkpoint of its own — the user's edits between turns before a run, what
 * is kept before a restore. Used by the prompt run (lib/agent-session/session-run.ts) and by restores (lib/checkpoints).
 */
import type { DbScope } from "@/lib/db/client";
import { type CheckpointKind, entryCommit, recordCheckpoint } from "@/lib/session/checkpoint-rows";
import { checkpoint, resolveRef } from "@/lib/vfs/git";
import { sessionRef } from "@/lib/vfs/session-ref";
import type { Vfs } from "@/lib/vfs/vfs";
import { commitSnapshot, diffSnapshots, workingTreeSnapshot } from "@/lib/vfs/worktree";

/** A session's files: its VFS, the project root and the session. */
export interface FileStateTarget {
  vfs: Vfs;
  root: string;
  session: { id: string };
}

/** Commit message of the user's checkpoint before a run. */
export const USER_CHANGES_MESSAGE = "Strata: changes made between turns";
/** Commit message of what a restore keeps of the working tree. */
export const KEPT_MESSAGE = "Strata: kept before restore";

/**
 * The commit session point `leafId` stands on: the commit its entry (or its nearest ancestor) records; else — no
 * entry records one (an empty session, entries older than file binding) — the session ref's commit, else HEAD's.
 * null when the repository has no commit at all.
 */
export async function pointCommit(
  scope: DbScope,
  target: FileStateTarget,
  leafId: string | null,
): Promise<string | null> {
  const recorded = leafId ? await entryCommit(scope, target.session.id, leafId) : null;
  if (recorded) return recorded;
  return (
    (await resolveRef(target.vfs, target.root, sessionRef(target.session.id))) ??
    (await resolveRef(target.vfs, target.root, "HEAD"))
  );
}

/**
 * Commit the working tree's differences from `base` (editor saves, file operations, another session's run…) as a
 * checkpoint on `base` (ignored untracked files left out), moving the session ref to it and storing its row.
 * @returns the new commit and its project-relative paths, or null when the working tree equals `base` (or the
 *   project has no repository).
 */
export async function commitWorkingTree(
  target: FileStateTarget,
  options: {
    scope: DbScope;
    base: string | null;
    kind: CheckpointKind;
    message: string;
    author: { name: string; email: string };
    userId?: string | null;
    /** false: leave the commit's objects unflushed and its row unstored (the caller flushes, then records it). */
    flush?: boolean;
  },
): Promise<{ oid: string; paths: string[] } | null> {
  const { vfs, root, session } = target;
  // No repository (or no project directory yet): nothing to commit on.
  if ((await vfs.lstat(`${root}/.git`).catch(() => null))?.kind !== "dir") return null;
  const [working, committed] = await Promise.all([
    workingTreeSnapshot(vfs, root),
    // Lenient: a base an older Strata wrote with a name git cannot hold must not stop the run (issue 26).
    commitSnapshot(vfs, root, options.base, { lenient: true }),
  ]);
  const changes = diffSnapshots(committed, working);
  if (changes.length === 0) return null;
  const result = await checkpoint(vfs, root, {
    changedPaths: changes.map((c) => `${root}/${c.path}`),
    ref: sessionRef(session.id),
    message: options.message,
    author: options.author,
    parent: options.base,
  });
  if (!result) return null;
  // What the commit holds (an ignored untracked file is not part of it).
  const after = await commitSnapshot(vfs, root, result.oid, { lenient: true });
  const paths = diffSnapshots(committed, after).map((c) => c.path);
  if (options.flush === false) return { oid: result.oid, paths };
  await vfs.flush();
  await recordCheckpoint(options.scope, session.id, {
    commitOid: result.oid,
    parentOid: options.base,
    kind: options.kind,
    paths,
    authorUserId: options.userId ?? null,
  });
  return { oid: result.oid, paths };
}
