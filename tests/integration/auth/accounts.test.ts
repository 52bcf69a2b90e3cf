/** Better Auth on Strata's schema against the real Postgres: sign-up makes a personal workspace, the cookie resolves. */
import { describe, expect, it } from "vitest";
import { authorizeWorkspace } from "@/lib/access/authorize";
import { resolveCaller } from "@/lib/auth/caller";
import { withDb } from "@/lib/db/client";
import { asUser, authJson, createTestUser } from "../../helpers/auth";

describe("accounts", () => {
  it("sign-up creates the user, a personal workspace with the user as owner, and a session cookie", async () => {
    const user = await createTestUser("Ada");
    const caller = await withDb((scope) => resolveCaller(scope, asUser(user, "/api/projects")));
    expect(caller).toEqual({ userId: user.id, email: user.email, name: "Ada", via: "cookie" });
    const access = await withDb((scope) => authorizeWorkspace(scope, caller!, user.workspaceId, "delete"));
    expect(access).toEqual({ workspaceId: user.workspaceId, kind: "personal", role: "owner" });
  });

  it("no cookie → no caller; another user's workspace → 404", async () => {
    const a = await createTestUser();
    const b = await createTestUser();
    expect(await withDb((scope) => resolveCaller(scope, asUser(null, "/api/projects")))).toBeNull();
    const callerB = await withDb((scope) => resolveCaller(scope, asUser(b, "/api/projects")));
    await expect(
      withDb((scope) => authorizeWorkspace(scope, callerB!, a.workspaceId, "read")),
    ).rejects.toMatchObject({
      status: 404,
      message: `Workspace ${a.workspaceId} not found`,
    });
  });

  it("a team with a viewer: the viewer reads, cannot write (403)", async () => {
    const owner = await createTestUser("Owner");
    const viewer = await createTestUser("Viewer");
    const team = await authJson<{ id: string }>(
      "/organization/create",
      { name: "Team A", slug: `team-${owner.id}` },
      owner,
    );
    const invitation = await authJson<{ id: string }>(
      "/organization/invite-member",
      { email: viewer.email, role: "viewer", organizationId: team.id },
      owner,
    );
    await authJson("/organization/accept-invitation", { invitationId: invitation.id }, viewer);
    const caller = await withDb((scope) => resolveCaller(scope, asUser(viewer, "/")));
    const access = await withDb((scope) => authorizeWorkspace(scope, caller!, team.id, "read"));
    expect(access).toEqual({ workspaceId: team.id, kind: "team", role: "viewer" });
    await expect(
      withDb((scope) => authorizeWorkspace(scope, caller!, team.id, "write")),
    ).rejects.toMatchObject({
      status: 403,
    });
  });
});
