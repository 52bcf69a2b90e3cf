/**
 * A team keeps an owner under concurrent member changes. Better Auth counts the owners before it writes, so on a
 * running server two owners demoting each other at the same moment, or both leaving, left the team with no owner in
 * 4 of 4 tries (nobody could then delete it or make an owner). `keepAnOwner` (lib/auth/workspaces.ts) undoes the
 * change that took the last owner away.
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";
import { authJson, createTestUser, ORIGIN, type TestUser } from "../../helpers/auth";

async function post(path: string, body: unknown, user: TestUser): Promise<number> {
  const request = new Request(`${ORIGIN}/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, cookie: user.cookie },
    body: JSON.stringify(body),
  });
  const res = await withDb((scope) => scope.run((db) => createAuth(db, ORIGIN).handler(request)));
  await res.text();
  return res.status;
}

async function twoOwnerTeam() {
  const a = await createTestUser("Owner A");
  const b = await createTestUser("Owner B");
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: "Race", slug: `race-${a.id}` },
    a,
  );
  const invitation = await authJson<{ id: string }>(
    "/organization/invite-member",
    { email: b.email, role: "owner", organizationId: team.id },
    a,
  );
  await authJson("/organization/accept-invitation", { invitationId: invitation.id }, b);
  const ids = await withDb((scope) =>
    scope.query<{ id: string; user_id: string }>(
      "SELECT id, user_id FROM workspace_members WHERE workspace_id = $1",
      [team.id],
    ),
  );
  const memberOf = (u: TestUser) => ids.find((r) => r.user_id === u.id)?.id as string;
  return { a, b, teamId: team.id, memberA: memberOf(a), memberB: memberOf(b) };
}

async function roles(teamId: string): Promise<string[]> {
  const rows = await withDb((scope) =>
    scope.query<{ role: string }>(
      "SELECT role FROM workspace_members WHERE workspace_id = $1 ORDER BY role",
      [teamId],
    ),
  );
  return rows.map((r) => r.role);
}

describe("the last owner under concurrent changes", () => {
  it("two owners demoting each other at once leave at least one owner", async () => {
    for (let i = 0; i < 3; i++) {
      const t = await twoOwnerTeam();
      const statuses = await Promise.all([
        post(
          "/organization/update-member-role",
          { memberId: t.memberB, role: "admin", organizationId: t.teamId },
          t.a,
        ),
        post(
          "/organization/update-member-role",
          { memberId: t.memberA, role: "admin", organizationId: t.teamId },
          t.b,
        ),
      ]);
      const after = await roles(t.teamId);
      expect(after.filter((r) => r === "owner").length).toBeGreaterThanOrEqual(1);
      expect(statuses.filter((s) => s === 200).length).toBe(after.filter((r) => r === "admin").length);
    }
  });

  it("two owners leaving at once leave at least one owner", async () => {
    for (let i = 0; i < 3; i++) {
      const t = await twoOwnerTeam();
      const statuses = await Promise.all([
        post("/organization/leave", { organizationId: t.teamId }, t.a),
        post("/organization/leave", { organizationId: t.teamId }, t.b),
      ]);
      const after = await roles(t.teamId);
      expect(after.filter((r) => r === "owner").length).toBeGreaterThanOrEqual(1);
      expect(after.length).toBe(2 - statuses.filter((s) => s === 200).length);
    }
  });

  it("an owner stepping down while another stays is allowed", async () => {
    const t = await twoOwnerTeam();
    expect(
      await post(
        "/organization/update-member-role",
        { memberId: t.memberB, role: "member", organizationId: t.teamId },
        t.a,
      ),
    ).toBe(200);
    expect(await roles(t.teamId)).toEqual(["member", "owner"]);
  });
});
