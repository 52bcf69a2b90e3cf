/**
 * A real Postgres-backed VFS for tests: a fresh workspace row in the run's test database
 * (see tests/global-setup.ts), opened through the app's own `openWorkspaceVfs`.
 */
import { DbScope } from "@/lib/db/client";
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
