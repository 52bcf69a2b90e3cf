/**
 * POST /api/account/password (a first password for an account without one, like the local owner) and the Better
 * Auth answers the account UI relies on (components/account): error codes, session and token list shapes.
 */
import { describe, expect, it } from "vitest";
import { POST } from "@/app/api/account/password/route";
import { MIN_PASSWORD_LENGTH } from "@/components/account/auth-fetch";
import { withDb } from "@/lib/db/client";
import { asUser, authJson, cookieOf, createTestUser, ORIGIN } from "../../helpers/auth";

/** Call a Better Auth route through the app's handler; status, JSON body and headers. */
async function auth(path: string, body?: unknown, cookie?: string) {
  const { GET: get, POST: post } = await import("@/app/api/auth/[...all]/route");
  const headers: Record<string, string> = { origin: ORIGIN };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (cookie) headers.cookie = cookie;
  const request = new Request(`${ORIGIN}/api/auth${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await (body === undefined ? get(request) : post(request));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}

function setPassword(user: { cookie: string } | null, body: unknown, headers: Record<string, string> = {}) {
  return POST(
    asUser(user, "/api/account/password", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** A signed-in user without a password (the local owner's shape: no credential account). */
async function passwordlessUser() {
  const user = await createTestUser("Passwordless");
  await withDb((scope) => scope.query("DELETE FROM auth_accounts WHERE user_id = $1", [user.id]));
  return user;
}

describe("POST /api/account/password", () => {
  it("sets a first password; the user then signs in with it; a second set is refused", async () => {
    const user = await passwordlessUser();
    const res = await setPassword(user, { newPassword: "a brand new secret" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ passwordSet: true });
    const signIn = await auth("/sign-in/email", { email: user.email, password: "a brand new secret" });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.email).toBe(user.email);

    const again = await setPassword(user, { newPassword: "another secret!" });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({
      error: { code: "PASSWORD_ALREADY_SET", message: "User already has a password set" },
    });
  });

  it("refuses a short password with Better Auth's code, a malformed body, no caller and a token caller", async () => {
    const user = await passwordlessUser();
    const short = await setPassword(user, { newPassword: "1234567" });
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({
      error: { code: "PASSWORD_TOO_SHORT", message: "Password too short" },
    });

    const malformed = await setPassword(user, { password: "x" });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe("bad_request");

    const anonymous = await setPassword(null, { newPassword: "long enough pw" });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe("unauthenticated");

    const owner = await createTestUser("Token owner");
    const key = await authJson<{ key: string }>("/api-key/create", { name: "cli" }, owner);
    const byToken = await setPassword(
      null,
      { newPassword: "long enough pw" },
      { authorization: `Bearer ${key.key}` },
    );
    expect(byToken.status).toBe(403);
    expect(await byToken.json()).toEqual({
      error: {
        code: "browser_only",
        message: "Set a password in Settings in the browser, not with an access token.",
      },
    });
  });
});

describe("Better Auth answers the account UI reads", () => {
  it("sign-up: the minimum length the UI states, a taken email; sign-in: a wrong password", async () => {
    const email = `ui-${Date.now().toString(36)}@example.test`;
    const short = await auth("/sign-up/email", {
      email,
      name: "UI",
      password: "x".repeat(MIN_PASSWORD_LENGTH - 1),
    });
    expect([short.status, short.body.code]).toEqual([400, "PASSWORD_TOO_SHORT"]);
    const ok = await auth("/sign-up/email", { email, name: "UI", password: "x".repeat(MIN_PASSWORD_LENGTH) });
    expect(ok.status).toBe(200);
    const taken = await auth("/sign-up/email", { email, name: "UI", password: "y".repeat(12) });
    expect([taken.status, taken.body.code]).toEqual([422, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL"]);
    const wrong = await auth("/sign-in/email", { email, password: "not the password" });
    expect([wrong.status, wrong.body.code]).toEqual([401, "INVALID_EMAIL_OR_PASSWORD"]);
  });

  it("lists sessions with the fields the Sessions card shows, and tokens without their secret", async () => {
    const user = await createTestUser("Lister");
    const second = await auth("/sign-in/email", { email: user.email, password: "correct horse battery" });
    const current = await auth("/get-session", undefined, user.cookie);
    const sessions = await auth("/list-sessions", undefined, user.cookie);
    expect(sessions.status).toBe(200);
    expect(sessions.body).toHaveLength(2);
    expect(sessions.body.map((s: { id: string }) => s.id)).toContain(current.body.session.id);
    for (const s of sessions.body)
      expect(Object.keys(s)).toEqual(
        expect.arrayContaining(["id", "token", "createdAt", "updatedAt", "userAgent", "expiresAt"]),
      );

    const revoked = await auth("/revoke-other-sessions", {}, user.cookie);
    expect(revoked.status).toBe(200);
    expect((await auth("/get-session", undefined, cookieOf(second.res))).body).toBeNull();
    expect((await auth("/list-sessions", undefined, user.cookie)).body).toHaveLength(1);

    const created = await auth("/api-key/create", { name: "laptop", expiresIn: 86_400 }, user.cookie);
    expect(created.status).toBe(200);
    expect(created.body.key).toMatch(/^strata_/);
    const list = await auth("/api-key/list", undefined, user.cookie);
    expect(list.body.apiKeys).toHaveLength(1);
    const [row] = list.body.apiKeys;
    expect(row.name).toBe("laptop");
    expect(created.body.key.startsWith(row.start)).toBe(true);
    expect(row).not.toHaveProperty("key");
    expect(Object.keys(row)).toEqual(expect.arrayContaining(["id", "createdAt", "expiresAt", "lastRequest"]));
    expect((await auth("/api-key/delete", { keyId: row.id }, user.cookie)).status).toBe(200);
    expect((await auth("/api-key/list", undefined, user.cookie)).body.apiKeys).toEqual([]);
  });
});
