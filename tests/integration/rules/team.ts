/** A team with an owner and members of given roles, made through Better Auth's organization routes. */
import type { RulesUser } from "@/lib/rules";
import { authJson, createTestUser, type TestUser } from "../../helpers/auth";

export interface Team {
  id: string;
  owner: TestUser;
  admin: TestUser;
  member: TestUser;
  viewer: TestUser;
  outsider: TestUser;
}

/** A team "Rules team" with one user of each role and an outsider (a user of another workspace). */
export async function createTeam(): Promise<Team> {
  const [owner, admin, member, viewer, outsider] = await Promise.all([
    createTestUser("Olive Owner"),
    createTestUser("Adam Admin"),
    createTestUser("Mia Member"),
    createTestUser("Vic Viewer"),
    createTestUser("Otto Outsider"),
  ]);
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: "Rules team", slug: `rules-${owner.id}` },
    owner,
  );
  for (const [user, role] of [
    [admin, "admin"],
    [member, "member"],
    [viewer, "viewer"],
  ] as const) {
    const invitation = await authJson<{ id: string }>(
      "/organization/invite-member",
      { email: user.email, role, organizationId: team.id },
      owner,
    );
    await authJson("/organization/accept-invitation", { invitationId: invitation.id }, user);
  }
  return { id: team.id, owner, admin, member, viewer, outsider };
}

/** The git identity of a test user. */
export const who = (u: TestUser): RulesUser => ({ userId: u.id, name: u.name, email: u.email });
