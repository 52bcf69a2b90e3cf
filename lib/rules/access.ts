/** What the rules routes need from the caller: its git identity, and the direct-change role check. */
import type { WorkspaceAccess } from "@/lib/auth/authorize";
import type { Caller } from "@/lib/auth/caller";
import { AuthError } from "@/lib/auth/errors";
import { roleAllows } from "@/lib/auth/roles";
import { DIRECT_CHANGE_FORBIDDEN } from "./errors";
import type { RulesUser } from "./types";

/** The caller as the author of commits, proposals and comments. */
export function rulesUser(caller: Caller): RulesUser {
  return { userId: caller.userId, name: caller.name, email: caller.email };
}

/**
 * @throws AuthError 403 `forbidden` "Only owners and admins change the team rules directly; propose the change
 *   instead." unless the caller's role may manage the workspace.
 */
export function requireDirectChange(access: WorkspaceAccess): void {
  if (!roleAllows(access.role, "manage")) throw new AuthError(403, "forbidden", DIRECT_CHANGE_FORBIDDEN);
}
