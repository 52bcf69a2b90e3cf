/** Opening a workspace's VFS for one request or operation. */
import { DbScope } from "@/lib/db/client";
import { PgVfsStore, type VfsStore } from "./store";
import { Vfs, type VfsOptions } from "./vfs";
import { type MainLineTarget, MainLineVfsStore } from "./worktree-main";
import { type WorktreeTarget, WorktreeVfsStore } from "./worktree-store";

/** A `Vfs` of `workspaceId` on its own lazily opened `DbScope` (release it when done or before waiting on the model). */
export function openWorkspaceVfs(
  workspaceId: string,
  scope = new DbScope(),
  options?: VfsOptions,
): { vfs: Vfs; scope: DbScope } {
  return { vfs: new Vfs(new PgVfsStore(scope, workspaceId), options), scope };
}

/**
 * A `Vfs` of `workspaceId` as session `target.sessionId` sees it: its own working tree below `target.root` (copy on
 * write over the project's main line, lib/vfs/worktree-store.ts), the workspace's nodes elsewhere.
 */
export function openWorktreeVfs(
  workspaceId: string,
  target: WorktreeTarget,
  scope = new DbScope(),
  options?: VfsOptions,
): { vfs: Vfs; scope: DbScope } {
  return { vfs: new Vfs(new WorktreeVfsStore(scope, workspaceId, target), options), scope };
}

/**
 * A `Vfs` of `workspaceId` whose writes below `target.root` move the project's main line: each session that has not
 * changed a path gets main's node there pinned first (lib/vfs/worktree-main.ts). For merges, imports and migration.
 */
export function openMainVfs(
  workspaceId: string,
  target: MainLineTarget,
  scope = new DbScope(),
  options?: VfsOptions,
): { vfs: Vfs; scope: DbScope } {
  return { vfs: new Vfs(new MainLineVfsStore(scope, workspaceId, target), options), scope };
}

/**
 * The `Vfs` session `sessionId` of `project` works on: its own working tree below the project root
 * (`openWorktreeVfs`). The one way every layer opens a session's files.
 */
export function openSessionVfs(
  project: { workspaceId: string; rootPath: string },
  sessionId: string,
  scope = new DbScope(),
  options?: VfsOptions,
): { vfs: Vfs; scope: DbScope } {
  return openWorktreeVfs(project.workspaceId, { sessionId, root: project.rootPath }, scope, options);
}

/**
 * The store a command of the execution service acts on: the working tree of the session it runs for
 * (`target.pending.sessionId`), else the workspace as is (the project's main line).
 */
export function targetStore(
  scope: DbScope,
  target: { workspaceId: string; projectRoot: string; pending?: { sessionId: string } },
): VfsStore {
  return target.pending
    ? new WorktreeVfsStore(scope, target.workspaceId, {
        sessionId: target.pending.sessionId,
        root: target.projectRoot,
      })
    : new PgVfsStore(scope, target.workspaceId);
}
