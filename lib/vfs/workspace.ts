/** Opening a workspace's VFS for one request or operation. */
import { DbScope } from "@/lib/db/client";
import { PgVfsStore } from "./store";
import { Vfs, type VfsOptions } from "./vfs";

/** A `Vfs` of `workspaceId` on its own lazily opened `DbScope` (release it when done or before waiting on the model). */
export function openWorkspaceVfs(
  workspaceId: string,
  scope = new DbScope(),
  options?: VfsOptions,
): { vfs: Vfs; scope: DbScope } {
  return { vfs: new Vfs(new PgVfsStore(scope, workspaceId), options), scope };
}
