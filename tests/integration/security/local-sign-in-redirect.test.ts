/**
 * The local owner's sign-in (`GET /api/auth/local/sign-in?callbackURL=`, lib/auth/local-owner.ts) redirects only to a
 * path of this origin. A browser drops tabs and line breaks from a URL and reads `\` as `/`, so `/<TAB>/evil.example`
 * would become `//evil.example` — another site — after a one-click sign-in on the embedded default.
 */
import { describe, expect, it } from "vitest";
import { localSignInOpen, safeCallbackPath } from "@/lib/auth/local-owner";
import { LOCAL_OWNER_EMAIL } from "@/lib/auth/mode";
import { createAuth } from "@/lib/auth/server";
import { withDb } from "@/lib/db/client";

const ORIGIN = "http://127.0.0.1:3000";
const LOCAL_ENV = { ...process.env, STRATA_AUTH_MODE: "local", HOST: "127.0.0.1" };

async function localSignIn(
  callbackURL: string,
  host = "127.0.0.1:3000",
  env: Record<string, string | undefined> = LOCAL_ENV,
): Promise<Response> {
  const request = new Request(
    `${ORIGIN}/api/auth/local/sign-in?callbackURL=${encodeURIComponent(callbackURL)}`,
    { headers: { host } },
  );
  return withDb((scope) => scope.run((db) => createAuth(db, ORIGIN, env).handler(request)));
}

describe("local sign-in callbackURL", () => {
  it.each([
    "//evil.example",
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/ /evil.example",
    "https://evil.example",
    "javascript:alert(1)",
  ])("%j redirects home", async (callbackURL) => {
    expect(safeCallbackPath(callbackURL)).toBe("/");
    const res = await localSignIn(callbackURL);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });

  it("a path of this origin is kept", async () => {
    const res = await localSignIn("/projects/abc?tab=files#x");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/projects/abc?tab=files#x");
  });

  it.each([
    ["a non-loopback Host in local mode", "strata.example.com", LOCAL_ENV],
    ["accounts mode", "127.0.0.1:3000", { ...process.env, STRATA_AUTH_MODE: undefined }],
    ["local mode bound to every interface", "127.0.0.1:3000", { ...LOCAL_ENV, HOST: "0.0.0.0" }],
  ])("answers 404 with no cookie for %s", async (_label, host, env) => {
    const res = await localSignIn("/", host, env);
    expect(res.status).toBe(404);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("automatic sign-in ends when the local owner sets a password", () => {
  it("open before; after a password the endpoint sends to /sign-in and sets no cookie; open again without it", async () => {
    const first = await localSignIn("/teams");
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/teams");
    expect(await withDb((scope) => localSignInOpen(scope, LOCAL_ENV))).toBe(true);
    const ownerId = await withDb(async (scope) => {
      const [row] = await scope.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [
        LOCAL_OWNER_EMAIL,
      ]);
      await scope.query(
        "INSERT INTO auth_accounts (account_id, provider_id, user_id, password) VALUES ($1::text, 'credential', $1::uuid, 'scrypt-hash')",
        [row.id],
      );
      return row.id;
    });
    try {
      expect(await withDb((scope) => localSignInOpen(scope, LOCAL_ENV))).toBe(false);
      const res = await localSignIn("/teams");
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/sign-in?next=%2Fteams");
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(
        await withDb((scope) => localSignInOpen(scope, { ...LOCAL_ENV, STRATA_AUTH_MODE: undefined })),
      ).toBe(false);
    } finally {
      await withDb((scope) =>
        scope.query("DELETE FROM auth_accounts WHERE user_id = $1 AND provider_id = 'credential'", [ownerId]),
      );
    }
    expect(await withDb((scope) => localSignInOpen(scope, LOCAL_ENV))).toBe(true);
  });
});
