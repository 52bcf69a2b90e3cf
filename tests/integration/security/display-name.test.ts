/**
 * A user's name is the author of git commits (session checkpoints, team rules commits and proposals). Measured on a
 * running server (helper H): a member renamed to "Bob\ncommitter Alice <…> …" proposed a rules change, and approving
 * it answered 500 (isomorphic-git could not parse the commit's author). Names with control characters, `<` or `>` are
 * refused at sign-up and on update-user. A right-to-left override (U+202E) shows a spoofed name in member lists; a NUL
 * in a team name answered 500 (Postgres refuses it in text): team names follow the same rule on create and update.
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";
import { authJson, createTestUser, ORIGIN } from "../../helpers/auth";

const REFUSAL = {
  code: "INVALID_NAME",
  message:
    "A name cannot contain line breaks, tabs or other control characters, text-direction controls, “<” or “>”. Remove them and try again.",
};

async function post(path: string, body: unknown, cookie?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", origin: ORIGIN };
  if (cookie) headers.cookie = cookie;
  const request = new Request(`${ORIGIN}/api/auth${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const res = await withDb((scope) => scope.run((db) => createAuth(db, ORIGIN).handler(request)));
  return { status: res.status, body: await res.json() };
}

describe("display names that would break git commits", () => {
  it.each([
    "Bob\ncommitter Alice <alice@example.test> 1700000000 +0000",
    "Tab\there",
    "Angle <brackets>",
    "Alice\u202Eecila",
    "Isolate \u2067x\u2069",
  ])("%j is refused on update-user and sign-up", async (name) => {
    const user = await createTestUser("Plain name");
    expect(await post("/update-user", { name }, user.cookie)).toEqual({ status: 400, body: REFUSAL });
    const email = `name-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
    expect(await post("/sign-up/email", { email, password: "correct horse battery", name })).toEqual({
      status: 400,
      body: REFUSAL,
    });
  });

  it.each(["Team\u0000null", "Team \u202Eevil", "Line\nbreak"])(
    "team name %j is refused on create and on update; the team keeps its name",
    async (name) => {
      const owner = await createTestUser("Team owner");
      const slug = `names-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      expect(await post("/organization/create", { name, slug }, owner.cookie)).toEqual({
        status: 400,
        body: REFUSAL,
      });
      const team = await authJson<{ id: string; name: string }>(
        "/organization/create",
        { name: "Fine team", slug },
        owner,
      );
      expect(
        await post("/organization/update", { organizationId: team.id, data: { name } }, owner.cookie),
      ).toEqual({ status: 400, body: REFUSAL });
      const full = await authJson<{ name: string }>(
        `/organization/get-full-organization?organizationId=${team.id}`,
        undefined,
        owner,
      );
      expect(full.name).toBe("Fine team");
    },
  );

  it("an ordinary name with accents and punctuation is kept", async () => {
    const user = await createTestUser("Plain name");
    await authJson("/update-user", { name: "Zoë O'Brien-Łukasz (ops)" }, user);
    const session = await authJson<{ user: { name: string } }>("/get-session", undefined, user);
    expect(session.user.name).toBe("Zoë O'Brien-Łukasz (ops)");
    // Right-to-left scripts are names, not controls.
    await authJson("/update-user", { name: "مريم العلي" }, user);
    const rtl = await authJson<{ user: { name: string } }>("/get-session", undefined, user);
    expect(rtl.user.name).toBe("مريم العلي");
  });
});
