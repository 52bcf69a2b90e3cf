/** What the rules routes need from the caller: its git identity, and the direct-change role check. */
import type { Caller } from "@/lib/auth/caller";
import { AuthError, forbidden } from "@/lib/auth/errors";
import { roleAllows, type WorkspaceAccess } from "@/lib/auth/roles";
import { DIRECT_CHANGE_FORBIDDEN } from "./errors";
import type { RulesUser } from "./types";

/** The caller as the author of commits, proposals and comments. */
export function rulesUser(caller: Caller): RulesUser {
  return { userId: caller.userId, name: caller.name, email: caller.email };
}

/**
 * @throws AuthError 403 `forbidden` unless the caller's role may manage the workspace: for a member "Only owners and
 *   admins change the team rules directly; propose the change instead.", for a viewer (who cannot propose either)
 *   the authorisation layer's "Your role in this workspace (viewer) cannot change the team rules. …".
 */
export function requireDirectChange(access: WorkspaceAccess): void {
  if (roleAllows(access.role, "manage")) return;
  if (roleAllows(access.role, "write")) throw new AuthError(403, "forbidden", DIRECT_CHANGE_FORBIDDEN);
  throw forbidden(access.role, "change the team rules");
}
