/**
 * What Better Auth's organization plugin enforces for Strata's four roles (the team page relies on it and words its
 * codes in components/teams/team-api.ts): only owners make or unmake owners, a team keeps at least one owner, the
 * last owner cannot leave, members cannot remove anyone.
 */
import { describe, expect, it } from "vitest";
import { POST as authRoute } from "@/app/api/auth/[...all]/route";
import { asUser, authJson, createTestUser, ORIGIN, type TestUser } from "../../helpers/auth";

async function refusal(
  path: string,
  body: unknown,
  user: TestUser,
): Promise<{ status: number; code: string }> {
  try {
    await authJson(path, body, user);
  } catch (error) {
    const match = /answered (\d+): (.*)$/s.exec((error as Error).message);
    if (!match) throw error;
    return { status: Number(match[1]), code: (JSON.parse(match[2]) as { code: string }).code };
  }
  throw new Error(`${path} was not refused`);
}

describe("team member rules (Better Auth)", () => {
  it("owners, admins and members", async () => {
    const owner = await createTestUser("Owner");
    const admin = await createTestUser("Admin");
    const member = await createTestUser("Member");
    const team = await authJson<{ id: string }>(
      "/organization/create",
      { name: "Rules team", slug: `rules-${owner.id}` },
      owner,
    );
    for (const [user, role] of [
      [admin, "admin"],
      [member, "member"],
    ] as const) {
      const inv = await authJson<{ id: string }>(
        "/organization/invite-member",
        { email: user.email, role, organizationId: team.id },
        owner,
      );
      await authJson("/organization/accept-invitation", { invitationId: inv.id }, user);
    }
    const full = await authJson<{ members: { id: string; userId: string }[] }>(
      `/organization/get-full-organization?organizationId=${team.id}`,
      undefined,
      owner,
    );
    const idOf = (u: TestUser) => full.members.find((m) => m.userId === u.id)?.id as string;
    const organizationId = team.id;

    // An admin cannot make an owner, nor change or remove the owner.
    expect(
      await refusal(
        "/organization/update-member-role",
        { organizationId, memberId: idOf(member), role: "owner" },
        admin,
      ),
    ).toEqual({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER" });
    expect(
      await refusal(
        "/organization/update-member-role",
        { organizationId, memberId: idOf(owner), role: "member" },
        admin,
      ),
    ).toEqual({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER" });
    expect(
      await refusal("/organization/remove-member", { organizationId, memberIdOrEmail: idOf(owner) }, admin),
    ).toEqual({ status: 400, code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER" });
    // A member cannot remove anyone: Better Auth answers 401, Strata's route 403 (the caller is signed in).
    expect(
      await refusal("/organization/remove-member", { organizationId, memberIdOrEmail: idOf(admin) }, member),
    ).toEqual({ status: 401, code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER" });
    const viaRoute = await authRoute(
      asUser(member, `${ORIGIN}/api/auth/organization/remove-member`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: ORIGIN },
        body: JSON.stringify({ organizationId, memberIdOrEmail: idOf(admin) }),
      }),
    );
    expect({ status: viaRoute.status, code: ((await viaRoute.json()) as { code: string }).code }).toEqual({
      status: 403,
      code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
    });
    // The only owner can neither demote themself nor leave.
    expect(
      await refusal(
        "/organization/update-member-role",
        { organizationId, memberId: idOf(owner), role: "admin" },
        owner,
      ),
    ).toEqual({ status: 400, code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER" });
    expect(await refusal("/organization/leave", { organizationId }, owner)).toEqual({
      status: 400,
      code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
    });
    // With a second owner, the first may step down; the admin may change members' roles.
    await authJson(
      "/organization/update-member-role",
      { organizationId, memberId: idOf(admin), role: "owner" },
      owner,
    );
    await authJson(
      "/organization/update-member-role",
      { organizationId, memberId: idOf(owner), role: "admin" },
      owner,
    );
    await authJson("/organization/leave", { organizationId }, owner);
    await authJson(
      "/organization/update-member-role",
      { organizationId, memberId: idOf(member), role: "viewer" },
      admin,
    );
    const after = await authJson<{ members: { userId: string; role: string }[] }>(
      `/organization/get-full-organization?organizationId=${team.id}`,
      undefined,
      admin,
    );
    expect(after.members.map((m) => [m.userId, m.role]).sort()).toEqual(
      [
        [admin.id, "owner"],
        [member.id, "viewer"],
      ].sort(),
    );
  });
});
