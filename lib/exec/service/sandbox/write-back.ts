/**
 * Writing a sandbox command's changes back to the workspace VFS (Postgres): the tree's differences
 * (lib/exec/service/sandbox/tree.ts `diffTree`) become VFS writes and deletions, recorded as the run's
 * pending paths when the request names one, and flushed in one transaction.
 *
 * Node-only (lib/exec/service/).
 */
import type { DbScope } from "@/lib/db/client";
import { recordPendingPaths } from "@/lib/session/pending-paths";
import { VfsError } from "@/lib/vfs/errors";
import { symlinkTargetEscapes } from "@/lib/vfs/paths";
import { Vfs } from "@/lib/vfs/vfs";
import { targetStore } from "@/lib/vfs/workspace";
import type { TreeChange } from "./tree";

/** What the write-back did: the absolute VFS paths written or deleted (sorted), and the files it refused. */
export interface WriteBackReport {
  changedPaths: string[];
  /** Lines for the command's output, e.g. "sandbox: dist/big.bin not written back: EFBIG: …". */
  notes: string[];
}

/**
 * Apply `changes` (paths relative to `root`) to workspace `workspaceId`'s VFS on `scope` and flush them.
 * A file the VFS refuses (over its file-size or path limits) and a symlink pointing outside the project (an absolute
 * target named the sandbox's own root) are skipped with a note; the rest is written.
 * @throws VfsConflictError when another writer changed one of the paths meanwhile (nothing written);
 *   VfsError EFBIG when the whole change is over the VFS's flush limit (nothing written).
 */
export async function writeBack(
  scope: DbScope,
  target: { workspaceId: string; root: string; pending?: { sessionId: string; runId?: string } },
  changes: TreeChange[],
): Promise<WriteBackReport> {
  const notes: string[] = [];
  if (changes.length === 0) return { changedPaths: [], notes };
  const { root } = target;
  const vfs = new Vfs(
    targetStore(scope, { workspaceId: target.workspaceId, projectRoot: root, pending: target.pending }),
  );
  await vfs.preload(root, { withData: false, except: [`${root}/.git`] });
  for (const change of changes) {
    const abs = `${root}/${change.path}`;
    try {
      if (change.op === "delete") {
        if (!(await exists(vfs, abs))) continue;
        if (change.kind === "dir") await vfs.rmdir(abs, { recursive: true });
        else await vfs.unlink(abs);
      } else if (change.kind === "dir") {
        await vfs.mkdir(abs, { recursive: true });
      } else if (change.kind === "symlink") {
        if (symlinkTargetEscapes(root, change.path, change.target)) {
          notes.push(
            `sandbox: ${change.path} not written back: the symlink points outside the project (${change.target}); use a relative target inside it`,
          );
          continue;
        }
        if (await exists(vfs, abs)) await vfs.unlink(abs);
        await vfs.symlink(change.target, abs);
      } else {
        await vfs.writeFile(abs, change.data, { mode: change.mode });
      }
    } catch (error) {
      if (!(error instanceof VfsError)) throw error;
      notes.push(`sandbox: ${change.path} not written back: ${error.message}`);
    }
  }
  const changedPaths = vfs
    .dirtyPaths()
    .filter((p) => p.startsWith(`${root}/`))
    .sort();
  if (target.pending)
    await recordPendingPaths(scope, target.pending.sessionId, target.pending.runId ?? null, changedPaths);
  await vfs.flush();
  return { changedPaths, notes };
}

async function exists(vfs: { lstat(path: string): Promise<unknown> }, path: string): Promise<boolean> {
  try {
    await vfs.lstat(path);
    return true;
  } catch {
    return false;
  }
}
