/**
 * The four workspace roles and what each may do, as Better Auth access-control statements (the organization
 * plugin's custom `roles` replace its defaults, so all four are defined here) and as Strata's own permission
 * ladder used by `authorize.ts`.
 *
 * | permission | viewer | member | admin | owner |
 * |---|---|---|---|---|
 * | `read` (projects, files, sessions, rules, proposals) | ✓ | ✓ | ✓ | ✓ |
 * | `write` (prompt, edit files, create sessions and projects, propose rules changes) |  | ✓ | ✓ | ✓ |
 * | `manage` (members, invitations, team rules root, review proposals, workspace secrets) |  |  | ✓ | ✓ |
 * | `delete` (delete the team) |  |  |  | ✓ |
 */
import { createAccessControl } from "better-auth/plugins/access";

export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];
export type Permission = "read" | "write" | "manage" | "delete";

/** A caller's place in one workspace, as `lib/access/authorize.ts` finds it. */
export interface WorkspaceAccess {
  workspaceId: string;
  kind: "personal" | "team" | "agent";
  role: Role;
}

const LADDER: Record<Role, readonly Permission[]> = {
  viewer: ["read"],
  member: ["read", "write"],
  admin: ["read", "write", "manage"],
  owner: ["read", "write", "manage", "delete"],
};

/** Whether `role` carries `permission`. An unknown role (a hand-edited row) carries nothing. */
export function roleAllows(role: string, permission: Permission): boolean {
  return (LADDER as Record<string, readonly Permission[] | undefined>)[role]?.includes(permission) ?? false;
}

/** `value` as a Role, or null. */
export function asRole(value: unknown): Role | null {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value) ? (value as Role) : null;
}

/** Better Auth's statements: its organization resources plus Strata's (`project`, `rules`). */
export const accessControl = createAccessControl({
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
  project: ["read", "write"],
  rules: ["read", "propose", "write", "review"],
});

/** The organization plugin's roles, one per {@link Role}. */
export const organizationRoles = {
  owner: accessControl.newRole({
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    ac: ["create", "read", "update", "delete"],
    project: ["read", "write"],
    rules: ["read", "propose", "write", "review"],
  }),
  admin: accessControl.newRole({
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    ac: ["create", "read", "update", "delete"],
    project: ["read", "write"],
    rules: ["read", "propose", "write", "review"],
  }),
  member: accessControl.newRole({
    project: ["read", "write"],
    rules: ["read", "propose"],
  }),
  viewer: accessControl.newRole({
    project: ["read"],
    rules: ["read"],
  }),
};
