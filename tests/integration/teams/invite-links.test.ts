/** lib/auth/invite-links.ts against the real Postgres: create, list, revoke, accept (expiry, max uses, races). */
import { describe, expect, it } from "vitest";
import {
  acceptInviteLink,
  createInviteLink,
  hashInviteToken,
  listInviteLinks,
  newInviteToken,
  previewInviteLink,
  revokeInviteLink,
} from "@/lib/auth/invite-links";
import { withDb } from "@/lib/db/client";
import { authJson, createTestUser, type TestUser } from "../../helpers/auth";

async function team(owner: TestUser, name = "Link team"): Promise<string> {
  const created = await authJson<{ id: string }>(
    "/organization/create",
    { name, slug: `links-${owner.id}-${Math.random().toString(36).slice(2, 8)}` },
    owner,
  );
  return created.id;
}

const link = (
  workspaceId: string,
  createdBy: string,
  over: Partial<{ role: string; expiresInDays: number; maxUses: number | null }> = {},
  now?: Date,
) =>
  withDb((scope) =>
    createInviteLink(
      scope,
      { workspaceId, createdBy, role: "member", expiresInDays: 7, maxUses: null, ...over },
      now,
    ),
  );

async function memberRole(workspaceId: string, userId: string): Promise<string | null> {
  const rows = await withDb((scope) =>
    scope.query<{ role: string }>(
      "SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2",
      [workspaceId, userId],
    ),
  );
  return rows[0]?.role ?? null;
}

describe("invite links", () => {
  it("tokens are 43 base64url characters; only the SHA-256 is stored", async () => {
    const owner = await createTestUser("Owner");
    const ws = await team(owner);
    const now = new Date("2026-12-01T12:00:00.000Z");
    const { link: view, token } = await link(ws, owner.id, { role: "viewer", maxUses: 3 }, now);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newInviteToken()).not.toBe(token);
    expect(view).toEqual({
      id: view.id,
      workspaceId: ws,
      role: "viewer",
      expiresAt: "2026-12-08T12:00:00.000Z",
      revokedAt: null,
      uses: 0,
      maxUses: 3,
      createdAt: "2026-12-01T12:00:00.000Z",
      createdBy: { id: owner.id, name: "Owner", email: owner.email },
      status: "active",
    });
    const stored = await withDb((scope) =>
      scope.query<{ token_hash: string }>("SELECT token_hash FROM workspace_invite_links WHERE id = $1", [
        view.id,
      ]),
    );
    expect(stored[0].token_hash).toBe(await hashInviteToken(token));
    expect(stored[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].token_hash).not.toContain(token);
  });

  it("refuses an owner link, an unknown role, other expiries, bad max uses and a personal workspace", async () => {
    const owner = await createTestUser();
    const ws = await team(owner);
    await expect(link(ws, owner.id, { role: "owner" })).rejects.toMatchObject({
      status: 400,
      message:
        "An invite link cannot make owners: anyone holding it would own the team. Invite by email with the owner role, or make a member an owner afterwards.",
    });
    await expect(link(ws, owner.id, { role: "boss" })).rejects.toMatchObject({
      status: 400,
      message: "The role must be admin, member or viewer.",
    });
    await expect(link(ws, owner.id, { expiresInDays: 2 })).rejects.toMatchObject({
      status: 400,
      message: "A link expires after 1, 7 or 30 days.",
    });
    for (const maxUses of [0, 1.5, 1001])
      await expect(link(ws, owner.id, { maxUses })).rejects.toMatchObject({
        status: 400,
        message: "The maximum number of uses must be a whole number from 1 to 1000, or empty for no limit.",
      });
    await expect(link(owner.workspaceId, owner.id)).rejects.toMatchObject({
      status: 400,
      message: "Only a team takes invitations; a personal workspace has one member.",
    });
  });

  it("accept adds the caller with the link's role and counts a use; a member again changes nothing", async () => {
    const owner = await createTestUser("Owner");
    const joiner = await createTestUser("Joiner");
    const ws = await team(owner, "Acme");
    const { link: view, token } = await link(ws, owner.id, { role: "viewer" });
    expect(await withDb((scope) => previewInviteLink(scope, token))).toEqual({
      workspaceId: ws,
      teamName: "Acme",
      role: "viewer",
      inviterName: "Owner",
      expiresAt: view.expiresAt,
      status: "active",
    });
    expect(await withDb((scope) => acceptInviteLink(scope, token, { userId: joiner.id }))).toEqual({
      workspaceId: ws,
      role: "viewer",
      joined: true,
    });
    expect(await memberRole(ws, joiner.id)).toBe("viewer");
    // Already a member (promoted meanwhile): no role change, no use counted.
    await withDb((scope) =>
      scope.query("UPDATE workspace_members SET role = 'admin' WHERE workspace_id = $1 AND user_id = $2", [
        ws,
        joiner.id,
      ]),
    );
    expect(await withDb((scope) => acceptInviteLink(scope, token, { userId: joiner.id }))).toEqual({
      workspaceId: ws,
      role: "admin",
      joined: false,
    });
    expect(await withDb((scope) => acceptInviteLink(scope, token, { userId: owner.id }))).toEqual({
      workspaceId: ws,
      role: "owner",
      joined: false,
    });
    expect(await memberRole(ws, joiner.id)).toBe("admin");
    const [listed] = await withDb((scope) => listInviteLinks(scope, ws));
    expect(listed.uses).toBe(1);
    expect(listed.status).toBe("active");
  });

  it("unknown, expired, revoked and used-up links are refused with their messages", async () => {
    const owner = await createTestUser();
    const a = await createTestUser();
    const b = await createTestUser();
    const ws = await team(owner);
    const unknown = {
      status: 404,
      code: "not_found",
      message: "This invite link does not exist. Check that you copied all of it, or ask for a new one.",
    };
    await expect(
      withDb((scope) => acceptInviteLink(scope, newInviteToken(), { userId: a.id })),
    ).rejects.toMatchObject(unknown);
    await expect(withDb((scope) => acceptInviteLink(scope, "short", { userId: a.id }))).rejects.toMatchObject(
      unknown,
    );
    expect(await withDb((scope) => previewInviteLink(scope, newInviteToken()))).toBeNull();

    const past = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    const expired = await link(ws, owner.id, { expiresInDays: 1 }, past);
    expect(expired.link.status).toBe("active"); // as of its creation
    await expect(
      withDb((scope) => acceptInviteLink(scope, expired.token, { userId: a.id })),
    ).rejects.toMatchObject({
      status: 410,
      code: "invite_expired",
      message: "This invite link has expired. Ask a team owner or admin for a new one.",
    });

    const revoked = await link(ws, owner.id);
    const after = await withDb((scope) => revokeInviteLink(scope, ws, revoked.link.id));
    expect(after.status).toBe("revoked");
    expect(after.revokedAt).not.toBeNull();
    await expect(
      withDb((scope) => acceptInviteLink(scope, revoked.token, { userId: a.id })),
    ).rejects.toMatchObject({
      status: 410,
      code: "invite_revoked",
      message: "This invite link was revoked. Ask a team owner or admin for a new one.",
    });

    const once = await link(ws, owner.id, { maxUses: 1 });
    expect((await withDb((scope) => acceptInviteLink(scope, once.token, { userId: a.id }))).joined).toBe(
      true,
    );
    await expect(
      withDb((scope) => acceptInviteLink(scope, once.token, { userId: b.id })),
    ).rejects.toMatchObject({
      status: 410,
      code: "invite_used_up",
      message:
        "This invite link has been used as many times as it allows. Ask a team owner or admin for a new one.",
    });
    expect(await memberRole(ws, b.id)).toBeNull();
    expect((await withDb((scope) => previewInviteLink(scope, once.token)))?.status).toBe("used_up");
    const statuses = (await withDb((scope) => listInviteLinks(scope, ws))).map((l) => [
      l.id,
      l.status,
      l.uses,
    ]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        [expired.link.id, "expired", 0],
        [revoked.link.id, "revoked", 0],
        [once.link.id, "used_up", 1],
      ]),
    );
  });

  it("revoking a link of another team answers 404", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const ws = await team(owner);
    const otherWs = await team(other);
    const { link: view } = await link(ws, owner.id);
    await expect(withDb((scope) => revokeInviteLink(scope, otherWs, view.id))).rejects.toMatchObject({
      status: 404,
      message: `Invite link ${view.id} not found`,
    });
    await expect(withDb((scope) => revokeInviteLink(scope, ws, "nope"))).rejects.toMatchObject({
      status: 404,
      message: "Invite link nope not found",
    });
  });

  it("concurrent accepts never exceed max uses", async () => {
    const owner = await createTestUser();
    const ws = await team(owner);
    const joiners = await Promise.all(Array.from({ length: 6 }, (_, i) => createTestUser(`J${i}`)));
    const { link: view, token } = await link(ws, owner.id, { maxUses: 2 });
    const results = await Promise.allSettled(
      joiners.map((j) => withDb((scope) => acceptInviteLink(scope, token, { userId: j.id }))),
    );
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(2);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.map((r) => (r.reason as { code: string }).code)).toEqual(Array(4).fill("invite_used_up"));
    const rows = await withDb((scope) =>
      scope.query<{ uses: number; members: string }>(
        `SELECT l.uses, (SELECT count(*) FROM workspace_members m WHERE m.workspace_id = l.workspace_id)::text AS members
         FROM workspace_invite_links l WHERE l.id = $1`,
        [view.id],
      ),
    );
    expect(rows[0]).toEqual({ uses: 2, members: "3" });
  });

  it("one user accepting twice at once joins once and counts one use", async () => {
    const owner = await createTestUser();
    const joiner = await createTestUser();
    const ws = await team(owner);
    const { link: view, token } = await link(ws, owner.id, { maxUses: 5 });
    const results = await Promise.all(
      [1, 2, 3].map(() => withDb((scope) => acceptInviteLink(scope, token, { userId: joiner.id }))),
    );
    expect(results.map((r) => r.joined).sort()).toEqual([false, false, true]);
    const [listed] = (await withDb((scope) => listInviteLinks(scope, ws))).filter((l) => l.id === view.id);
    expect(listed.uses).toBe(1);
  });
});
