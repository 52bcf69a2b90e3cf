/** Loading the acting user's agent dir VFS (pi `~/.pi/agent`, see lib/projects/agent-dir.ts) for a request. */
import { DbScope } from "@/lib/db/client";
import { AGENT_DIR, openAgentVfs } from "@/lib/projects/agent-dir";
import { getLocalActor } from "@/lib/projects/identity";
import type { Vfs } from "@/lib/vfs/vfs";

/** Run `fn` with the local user's agent VFS and the agent dir path; the scope is released afterwards. */
export async function withAgentDir<T>(
  fn: (ctx: { scope: DbScope; vfs: Vfs; root: string }) => Promise<T>,
): Promise<T> {
  const scope = new DbScope();
  try {
    const { userId } = await getLocalActor(scope);
    const { vfs } = await openAgentVfs(scope, userId);
    return await fn({ scope, vfs, root: AGENT_DIR });
  } finally {
    await scope.release();
  }
}
