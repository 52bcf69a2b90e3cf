/**
 * A user's name is the author of git commits (session checkpoints, team rules commits and proposals). Measured on a
 * running server (helper H): a member renamed to "Bob\ncommitter Alice <…> …" proposed a rules change, and approving
 * it answered 500 (isomorphic-git could not parse the commit's author). Names with control characters, `<` or `>` are
 * refused at sign-up and on update-user.
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";
import { authJson, createTestUser, ORIGIN } from "../../helpers/auth";

const REFUSAL = {
  code: "INVALID_NAME",
  message:
    "A name cannot contain line breaks, tabs or other control characters, “<” or “>”. Remove them and try again.",
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
  it.each(["Bob\ncommitter Alice <alice@example.test> 1700000000 +0000", "Tab\there", "Angle <brackets>"])(
    "%j is refused on update-user and sign-up",
    async (name) => {
      const user = await createTestUser("Plain name");
      expect(await post("/update-user", { name }, user.cookie)).toEqual({ status: 400, body: REFUSAL });
      const email = `name-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
      expect(await post("/sign-up/email", { email, password: "correct horse battery", name })).toEqual({
        status: 400,
        body: REFUSAL,
      });
    },
  );

  it("an ordinary name with accents and punctuation is kept", async () => {
    const user = await createTestUser("Plain name");
    await authJson("/update-user", { name: "Zoë O'Brien-Łukasz (ops)" }, user);
    const session = await authJson<{ user: { name: string } }>("/get-session", undefined, user);
    expect(session.user.name).toBe("Zoë O'Brien-Łukasz (ops)");
  });
});
