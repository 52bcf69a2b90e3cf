/** Loading the caller's agent dir VFS (pi `~/.pi/agent`, see lib/projects/agent-dir.ts) for a request. */
import type { Caller } from "@/lib/auth/caller";
import type { DbScope } from "@/lib/db/client";
import { AGENT_DIR, openAgentVfs } from "@/lib/projects/agent-dir";
import type { Vfs } from "@/lib/vfs/vfs";
import { withCaller } from "./access";

/**
 * Run `fn` with the signed-in caller's own agent VFS (their agent workspace, private to them) and the agent dir
 * path; the scope is released afterwards. @throws AuthError 401 without a caller.
 */
export async function withAgentDir<T>(
  request: Request,
  fn: (ctx: { scope: DbScope; caller: Caller; vfs: Vfs; root: string }) => Promise<T>,
): Promise<T> {
  return withCaller(request, async ({ scope, caller }) => {
    const { vfs } = await openAgentVfs(scope, caller.userId);
    return fn({ scope, caller, vfs, root: AGENT_DIR });
  });
}
