/**
 * The CLI's direct-database actor (`getLocalActor`): the local owner `owner@strata.localhost` — the account the
 * embedded default signs a loopback browser in as — with its personal workspace and owner membership, created once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_OWNER_EMAIL } from "@/lib/auth/mode";
import { DbScope, withDb } from "@/lib/db/client";
import { getLocalActor } from "@/lib/projects/identity";

let scope: DbScope;
beforeAll(() => {
  scope = new DbScope();
});
afterAll(async () => {
  await scope.release();
});

describe("getLocalActor", () => {
  it("is the local owner by email, with the personal workspace and its owner member row; concurrent calls agree", async () => {
    const actors = await Promise.all(Array.from({ length: 5 }, () => withDb((s) => getLocalActor(s))));
    expect(new Set(actors.map((a) => `${a.userId} ${a.workspaceId}`)).size).toBe(1);
    const [actor] = actors;
    const users = await scope.query<{ id: string; name: string }>(
      "SELECT id, name FROM users WHERE email = $1",
      [LOCAL_OWNER_EMAIL],
    );
    expect(users).toEqual([{ id: actor.userId, name: "Local owner" }]);
    const workspaces = await scope.query<{ id: string; kind: string; slug: string; role: string }>(
      `SELECT w.id, w.kind, w.slug, m.role FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id
       WHERE m.user_id = $1`,
      [actor.userId],
    );
    expect(workspaces).toEqual([
      { id: actor.workspaceId, kind: "personal", slug: `personal-${actor.userId}`, role: "owner" },
    ]);
    expect(await getLocalActor(scope)).toEqual(actor);
  });
});
