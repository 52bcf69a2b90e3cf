/**
 * A team cannot take the slug Strata gives a user's agent workspace (`agent-<user id>`) or personal workspace
 * (`personal-<user id>`). Measured on a running server (helper H): a team created with `agent-<victim id>` made the
 * victim's agent workspace impossible to create (unique slug), so their agent dir answered 500 on every request.
 */
import { describe, expect, it } from "vitest";
import { GET as getAgentTree } from "@/app/api/agent/tree/route";
import { asUser, authJson, createTestUser } from "../../helpers/auth";

async function tryAuth(path: string, body: unknown, user: { cookie: string }) {
  try {
    return { ok: true, body: await authJson(path, body, user) };
  } catch (error) {
    return { ok: false, body: (error as Error).message };
  }
}

const REFUSAL =
  "Slugs of the form “personal-<id>” and “agent-<id>” are reserved for Strata's own workspaces; choose another.";

describe("reserved workspace slugs", () => {
  it("a team named agent-<victim id> is refused and the victim's agent dir works", async () => {
    const attacker = await createTestUser("Squatter");
    const victim = await createTestUser("Newcomer");
    const made = await tryAuth(
      "/organization/create",
      { name: "Squat", slug: `agent-${victim.id}` },
      attacker,
    );
    expect(made.ok).toBe(false);
    expect(made.body).toContain("answered 400");
    expect(made.body).toContain(REFUSAL);
    const tree = await getAgentTree(asUser(victim, "/api/agent/tree"));
    expect(tree.status).toBe(200);
  });

  it("personal-<id> is refused on create, and no workspace may be renamed to agent-<id>", async () => {
    const user = await createTestUser("Renamer");
    const other = await createTestUser("Other");
    const made = await tryAuth("/organization/create", { name: "P", slug: `personal-${other.id}` }, user);
    expect(made.ok).toBe(false);
    const renamed = await tryAuth(
      "/organization/update",
      { organizationId: user.workspaceId, data: { slug: `agent-${other.id}` } },
      user,
    );
    expect(renamed.ok).toBe(false);
    expect(renamed.body).toContain(REFUSAL);
  });

  it("a personal workspace keeps its own slug on rename; ordinary slugs pass", async () => {
    const user = await createTestUser("Keeper");
    const kept = await tryAuth(
      "/organization/update",
      { organizationId: user.workspaceId, data: { name: "Mine", slug: `personal-${user.id}` } },
      user,
    );
    expect(kept).toMatchObject({ ok: true, body: { name: "Mine", slug: `personal-${user.id}` } });
    const team = await tryAuth(
      "/organization/create",
      { name: "Agents", slug: `agent-smith-${user.id.slice(0, 8)}` },
      user,
    );
    expect(team.ok).toBe(true);
  });
});
