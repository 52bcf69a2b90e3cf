/**
 * Revocation everywhere (docs/sharing.md): after a revoke every URL of the share answers the same 404, including URLs
 * fetched before; a token with one character changed and an expired share answer it too; who may revoke (creator,
 * admin+; a member 403, an outsider 404); deleting a session or a project revokes its shares first.
 */
import { describe, expect, it } from "vitest";
import { guardWorkspaceDelete } from "@/lib/auth/workspaces";
import { deleteProject } from "@/lib/projects/projects";
import { deleteSession } from "@/lib/session/lifecycle";
import { getSession } from "@/lib/session/store";
import { createTestUser } from "../../helpers/auth";
import { readAll, routes, share } from "./helpers";
import { call, createTeam, mock, ownerProject, prompt, scope, withShareStack } from "./share-fixture";

withShareStack();

const NOT_FOUND = JSON.stringify({ error: "Share not found" });

async function sharedSession() {
  const f = await ownerProject(scope, { "a.txt": "alpha\n" });
  await prompt(mock, f, "hello", [{ name: "write", input: { path: "b.txt", content: "beta\n" } }]);
  const leafId = (await getSession(scope, f.session.id))!.leafId!;
  return { f, leafId, ...(await share(f.owner, f.session.id, { leafId, includeFiles: true })) };
}

/** Every URL of a share (data, both files, fork as a signed-in user): statuses and bodies. */
async function everyUrl(token: string, forker: Awaited<ReturnType<typeof createTestUser>>) {
  const reads = await readAll(token, ["a.txt", "b.txt"]);
  const fork = await call(routes.fork.POST, forker, `/api/s/${token}/fork`, { token }, { json: {} });
  return [
    ...reads.map((r) => [r.status, r.body] as const),
    [fork.status, fork.status === 404 ? fork.body : ""],
  ];
}

describe("share revocation", () => {
  it("answers 404 on every URL after a revoke; a changed token answers 404 before it", async () => {
    const { f, token, summary } = await sharedSession();
    const forker = await createTestUser("Forker");
    const before = await everyUrl(token, forker);
    expect(before.map((b) => b[0])).toEqual([200, 200, 200, 201]);
    const last = token.at(-1) === "A" ? "B" : "A";
    const changed = `${token.slice(0, -1)}${last}`;
    expect((await everyUrl(changed, forker)).map((b) => b[0])).toEqual([404, 404, 404, 404]);
    const res = await call(
      routes.revoke.DELETE,
      f.owner,
      `/api/shares/${summary.id}`,
      { shareId: summary.id },
      {
        method: "DELETE",
      },
    );
    expect(res.status).toBe(204);
    const after = await everyUrl(token, forker);
    expect(after).toEqual([
      [404, NOT_FOUND],
      [404, NOT_FOUND],
      [404, NOT_FOUND],
      [404, NOT_FOUND],
    ]);
    const [rows] = await scope.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM session_share_files WHERE share_id = $1",
      [summary.id],
    );
    expect(rows.n).toBe(0);
    const data = await call(routes.data.GET, null, `/api/s/${token}`, { token });
    expect(data.headers.get("cache-control")).toBe("no-store");
    expect(data.headers.get("x-robots-tag")).toBe("noindex");
    expect(data.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("answers 404 for an expired share and revokes it on sight", async () => {
    const { token, summary } = await sharedSession();
    await scope.query("UPDATE session_shares SET expires_at = now() - interval '1 second' WHERE id = $1", [
      summary.id,
    ]);
    const res = await call(routes.data.GET, null, `/api/s/${token}`, { token });
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    expect(await scope.query("SELECT id FROM session_shares WHERE id = $1", [summary.id])).toEqual([]);
  });

  it("lets the creator and a workspace admin revoke; a member who is not the creator 403, an outsider 404", async () => {
    const owner = await createTestUser("Team owner");
    const member = await createTestUser("Member");
    const admin = await createTestUser("Admin");
    const outsider = await createTestUser("Outsider");
    const teamId = await createTeam(scope, "Share team", [
      [owner, "owner"],
      [member, "member"],
      [admin, "admin"],
    ]);
    const f = await ownerProject(scope, { "a.txt": "a\n" }, { ...owner, workspaceId: teamId });
    await prompt(mock, f, "hi", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const first = await share(owner, f.session.id, { leafId });
    const second = await share(owner, f.session.id, { leafId });
    const mine = await share(member, f.session.id, { leafId });
    const revoke = (u: typeof owner, id: string) =>
      call(routes.revoke.DELETE, u, `/api/shares/${id}`, { shareId: id }, { method: "DELETE" }).then(
        (r) => r.status,
      );
    expect(await revoke(outsider, first.summary.id)).toBe(404);
    expect(await revoke(member, first.summary.id)).toBe(403);
    const listed = await call(routes.mine.GET, admin, "/api/shares", {});
    expect((JSON.parse(listed.body).shares as { id: string }[]).map((s) => s.id).sort()).toEqual(
      [first.summary.id, second.summary.id, mine.summary.id].sort(),
    );
    expect(await revoke(admin, first.summary.id)).toBe(204);
    expect(await revoke(owner, second.summary.id)).toBe(204);
    expect(await revoke(member, mine.summary.id)).toBe(204);
    expect(await revoke(admin, first.summary.id)).toBe(404);
  });

  it("forgets a former member: none of the team's shares listed, each revoke 404 — their own shares included", async () => {
    const owner = await createTestUser("Team owner 2");
    const leaver = await createTestUser("Leaver");
    const exAdmin = await createTestUser("Ex-admin");
    const teamId = await createTeam(scope, "Left team", [
      [owner, "owner"],
      [leaver, "member"],
      [exAdmin, "admin"],
    ]);
    const f = await ownerProject(scope, { "a.txt": "a\n" }, { ...owner, workspaceId: teamId });
    await prompt(mock, f, "hi", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const ownersShare = await share(owner, f.session.id, { leafId });
    const leaversShare = await share(leaver, f.session.id, { leafId });
    // The leaver's own personal share stays theirs.
    const p = await ownerProject(scope, { "b.txt": "b\n" }, leaver);
    await prompt(mock, p, "mine", []);
    const personal = await share(leaver, p.session.id, {
      leafId: (await getSession(scope, p.session.id))!.leafId!,
    });
    const listed = async (u: typeof owner) =>
      (JSON.parse((await call(routes.mine.GET, u, "/api/shares", {})).body).shares as { id: string }[])
        .map((x) => x.id)
        .sort();
    expect(await listed(leaver)).toEqual([leaversShare.summary.id, personal.summary.id].sort());
    expect(await listed(exAdmin)).toEqual([ownersShare.summary.id, leaversShare.summary.id].sort());

    await scope.query("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = ANY($2)", [
      teamId,
      [leaver.id, exAdmin.id],
    ]);
    expect(await listed(leaver)).toEqual([personal.summary.id]);
    expect(await listed(exAdmin)).toEqual([]);
    const revoke = (u: typeof owner, id: string) =>
      call(routes.revoke.DELETE, u, `/api/shares/${id}`, { shareId: id }, { method: "DELETE" }).then((r) => [
        r.status,
        r.body,
      ]);
    const missing = (id: string) => [
      404,
      JSON.stringify({ error: { code: "not_found", message: `Share ${id} not found` } }),
    ];
    expect(await revoke(leaver, leaversShare.summary.id)).toEqual(missing(leaversShare.summary.id));
    expect(await revoke(exAdmin, ownersShare.summary.id)).toEqual(missing(ownersShare.summary.id));
    expect(await listed(owner)).toEqual([ownersShare.summary.id, leaversShare.summary.id].sort());
    expect(await revoke(leaver, personal.summary.id)).toEqual([204, ""]);
  });

  it("revokes a session's shares when the session is deleted, and a project's when the project is", async () => {
    const one = await sharedSession();
    await deleteSession(scope, one.f.session.id);
    expect((await readAll(one.token, ["a.txt"])).map((r) => [r.status, r.body])).toEqual([
      [404, NOT_FOUND],
      [404, NOT_FOUND],
    ]);
    expect(await scope.query("SELECT id FROM session_shares WHERE id = $1", [one.summary.id])).toEqual([]);
    const two = await sharedSession();
    await deleteProject(scope, two.f.project.id);
    expect((await readAll(two.token, ["b.txt"])).map((r) => r.status)).toEqual([404, 404]);
    expect(await scope.query("SELECT id FROM session_shares WHERE id = $1", [two.summary.id])).toEqual([]);
  });

  it("revokes a team's shares in the team-delete hook; without it the workspace row cannot go (RESTRICT)", async () => {
    const owner = await createTestUser("Deleting owner");
    const teamId = await createTeam(scope, "Doomed team", [[owner, "owner"]]);
    const f = await ownerProject(scope, { "a.txt": "a\n" }, { ...owner, workspaceId: teamId });
    await prompt(mock, f, "hi", []);
    const leafId = (await getSession(scope, f.session.id))!.leafId!;
    const { token, summary } = await share(owner, f.session.id, { leafId });
    await expect(scope.query("DELETE FROM workspaces WHERE id = $1", [teamId])).rejects.toThrow(
      /foreign key/,
    );
    expect((await readAll(token, [])).map((r) => r.status)).toEqual([200]);
    await scope.run((db) => guardWorkspaceDelete(db, teamId));
    expect((await readAll(token, [])).map((r) => [r.status, r.body])).toEqual([[404, NOT_FOUND]]);
    expect(await scope.query("SELECT id FROM session_shares WHERE id = $1", [summary.id])).toEqual([]);
  });

  it("keeps a share from being cascaded away: deleting the session row directly fails loudly", async () => {
    const { f } = await sharedSession();
    await expect(scope.query("DELETE FROM sessions WHERE id = $1", [f.session.id])).rejects.toThrow(
      /foreign key/,
    );
  });
});
