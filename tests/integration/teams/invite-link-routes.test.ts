/** The invite-link routes as browsers call them: manage-only listing/creation/revocation, accept by any signed-in user. */
import { describe, expect, it } from "vitest";
import { POST as acceptRoute } from "@/app/api/invite-links/[token]/accept/route";
import { DELETE as revokeRoute } from "@/app/api/workspaces/[id]/invite-links/[linkId]/route";
import { POST as createRoute, GET as listRoute } from "@/app/api/workspaces/[id]/invite-links/route";
import { asUser, authJson, createTestUser, type TestUser } from "../../helpers/auth";

const params = <T>(value: T) => ({ params: Promise.resolve(value) });

async function teamWith(owner: TestUser, others: [TestUser, string][]): Promise<string> {
  const team = await authJson<{ id: string }>(
    "/organization/create",
    { name: "Route team", slug: `routes-${owner.id}` },
    owner,
  );
  for (const [user, role] of others) {
    const inv = await authJson<{ id: string }>(
      "/organization/invite-member",
      { email: user.email, role, organizationId: team.id },
      owner,
    );
    await authJson("/organization/accept-invitation", { invitationId: inv.id }, user);
  }
  return team.id;
}

const create = (user: TestUser | null, ws: string, body: unknown) =>
  createRoute(
    asUser(user, `/api/workspaces/${ws}/invite-links`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    params({ id: ws }),
  );

describe("invite-link routes", () => {
  it("admins create and list links, members get 403, outsiders 404, anonymous 401", async () => {
    const owner = await createTestUser("Owner");
    const admin = await createTestUser("Admin");
    const member = await createTestUser("Member");
    const outsider = await createTestUser("Outsider");
    const ws = await teamWith(owner, [
      [admin, "admin"],
      [member, "member"],
    ]);

    const res = await create(admin, ws, { role: "viewer", expiresInDays: 30, maxUses: 10 });
    expect(res.status).toBe(201);
    const body = (await res.json()) as {
      link: { id: string; role: string; maxUses: number };
      token: string;
      path: string;
    };
    expect(body.path).toBe(`/invite/${body.token}`);
    expect(body.link).toMatchObject({ role: "viewer", maxUses: 10, uses: 0, status: "active" });

    const list = await listRoute(asUser(admin, `/api/workspaces/${ws}/invite-links`), params({ id: ws }));
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { links: { id: string; createdBy: { name: string } }[] };
    expect(listed.links.map((l) => [l.id, l.createdBy.name])).toEqual([[body.link.id, "Admin"]]);
    expect(JSON.stringify(listed)).not.toContain(body.token);

    const asMember = await create(member, ws, { role: "viewer", expiresInDays: 7 });
    expect(asMember.status).toBe(403);
    expect(((await asMember.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    const asOutsider = await listRoute(
      asUser(outsider, `/api/workspaces/${ws}/invite-links`),
      params({ id: ws }),
    );
    expect(asOutsider.status).toBe(404);
    expect(await asOutsider.json()).toEqual({
      error: { code: "not_found", message: `Workspace ${ws} not found` },
    });
    const anonymous = await create(null, ws, { role: "viewer", expiresInDays: 7 });
    expect(anonymous.status).toBe(401);
  });

  it("bad bodies answer 400 with the message", async () => {
    const owner = await createTestUser();
    const ws = await teamWith(owner, []);
    const owners = await create(owner, ws, { role: "owner", expiresInDays: 7 });
    expect(owners.status).toBe(400);
    expect(await owners.json()).toEqual({
      error: {
        code: "bad_request",
        message:
          "An invite link cannot make owners: anyone holding it would own the team. Invite by email with the owner role, or make a member an owner afterwards.",
      },
    });
    const days = await create(owner, ws, { role: "member", expiresInDays: 3 });
    expect(await days.json()).toEqual({
      error: { code: "bad_request", message: "A link expires after 1, 7 or 30 days." },
    });
    const extra = await create(owner, ws, { role: "member", expiresInDays: 7, token: "x" });
    expect(extra.status).toBe(400);
  });

  it("accept joins, a second accept is a no-op, revoke refuses later joins with 410, unknown token 404", async () => {
    const owner = await createTestUser();
    const joiner = await createTestUser();
    const late = await createTestUser();
    const ws = await teamWith(owner, []);
    const { link, token } = (await (
      await create(owner, ws, { role: "member", expiresInDays: 1 })
    ).json()) as {
      link: { id: string };
      token: string;
    };
    const accept = (user: TestUser | null, t = token) =>
      acceptRoute(asUser(user, `/api/invite-links/${t}/accept`, { method: "POST" }), params({ token: t }));

    expect((await accept(null)).status).toBe(401);
    const first = await accept(joiner);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ workspaceId: ws, role: "member", joined: true });
    expect(await (await accept(joiner)).json()).toEqual({ workspaceId: ws, role: "member", joined: false });

    const revoked = await revokeRoute(
      asUser(owner, `/api/workspaces/${ws}/invite-links/${link.id}`, { method: "DELETE" }),
      params({ id: ws, linkId: link.id }),
    );
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { link: { status: string } }).link.status).toBe("revoked");
    const refused = await accept(late);
    expect(refused.status).toBe(410);
    expect(await refused.json()).toEqual({
      error: {
        code: "invite_revoked",
        message: "This invite link was revoked. Ask a team owner or admin for a new one.",
      },
    });
    const unknown = await accept(late, "A".repeat(43));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: {
        code: "not_found",
        message: "This invite link does not exist. Check that you copied all of it, or ask for a new one.",
      },
    });
  });

  it("revoking as a member is 403; a link id of another team is 404", async () => {
    const owner = await createTestUser();
    const member = await createTestUser();
    const other = await createTestUser();
    const ws = await teamWith(owner, [[member, "member"]]);
    const otherWs = await authJson<{ id: string }>(
      "/organization/create",
      { name: "Other", slug: `other-${other.id}` },
      other,
    );
    const { link } = (await (await create(owner, ws, { role: "viewer", expiresInDays: 7 })).json()) as {
      link: { id: string };
    };
    const revoke = (user: TestUser, wsId: string) =>
      revokeRoute(
        asUser(user, `/api/workspaces/${wsId}/invite-links/${link.id}`, { method: "DELETE" }),
        params({ id: wsId, linkId: link.id }),
      );
    expect((await revoke(member, ws)).status).toBe(403);
    const cross = await revoke(other, otherWs.id);
    expect(cross.status).toBe(404);
    expect(await cross.json()).toEqual({
      error: { code: "not_found", message: `Invite link ${link.id} not found` },
    });
  });
});
