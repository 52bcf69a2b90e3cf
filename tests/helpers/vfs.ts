/**
 * A real Postgres-backed VFS for tests: a fresh workspace row in the run's test database
 * (see tests/global-setup.ts), opened through the app's own `openWorkspaceVfs`.
 */
import { DbScope } from "@/lib/db/client";
import { PgVfsStore } from "@/lib/vfs/store";
import type { Vfs } from "@/lib/vfs/vfs";
import { openWorkspaceVfs } from "@/lib/vfs/workspace";

/** Create a workspace and return its VFS. `reopen()` gives a second, cold VFS on the same workspace. */
export async function createTestVfs(): Promise<{
  fs: Vfs;
  workspaceId: string;
  scope: DbScope;
  reopen(): Vfs;
  cleanup(): Promise<void>;
}> {
  const scope = new DbScope();
  const [row] = await scope.query<{ id: string }>(
    "INSERT INTO workspaces (name, kind, slug) VALUES ('test', 'personal', 'test-' || gen_random_uuid()) RETURNING id",
  );
  const workspaceId = row.id;
  const { vfs } = openWorkspaceVfs(workspaceId, scope);
  const extra: DbScope[] = [];
  return {
    fs: vfs,
    workspaceId,
    scope,
    reopen() {
      const s = new DbScope();
      extra.push(s);
      return openWorkspaceVfs(workspaceId, s).vfs;
    },
    async cleanup() {
      await scope.query("DELETE FROM workspaces WHERE id = $1", [workspaceId]);
      await scope.release();
      for (const s of extra) await s.release();
    },
  };
}

/**
 * Store file `path` (absolute; its folder must exist) with `text` directly in workspace `workspaceId`'s `vfs_nodes`,
 * below the VFS and its name rule: data an older Strata stored (a name the VFS refuses to create today).
 */
export async function storeBelowNameRule(workspaceId: string, path: string, text: string): Promise<void> {
  const scope = new DbScope();
  try {
    await new PgVfsStore(scope, workspaceId).commit([
      {
        op: "put",
        path,
        kind: "file",
        mode: 0o100644,
        data: new TextEncoder().encode(text),
        mtimeMs: Date.now(),
        baseVersion: null,
        cas: true,
      },
    ]);
  } finally {
    await scope.release();
  }
}
