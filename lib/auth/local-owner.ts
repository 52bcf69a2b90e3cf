/**
 * The embedded default's sign-in (a Better Auth plugin): `GET /api/auth/local/sign-in?callbackURL=/path` signs a
 * loopback browser in as the local owner (`owner@strata.localhost`, created if missing) and redirects back. It
 * answers 404 unless the server runs in `local` mode (lib/auth/mode.ts: embedded database, loopback bind) and the
 * request's Host names loopback — the same trust the single-user Strata gave anyone who could reach the port — and only
 * while the local owner has no password: setting one (Settings → Password) ends automatic sign-in for good, so that
 * once the owner invites people, nobody can become the owner by opening the address.
 */
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";
import type { DbScope } from "@/lib/db/client";
import { authMode, isLoopbackHost, LOCAL_OWNER_EMAIL, LOCAL_OWNER_NAME } from "./mode";

/**
 * `value` if it is a same-origin path (`/…`, not `//…`), else `/`. A backslash, whitespace or a control character
 * anywhere refuses it too: browsers drop tabs and line breaks from a URL and read a backslash as a slash, so `/<TAB>/evil`
 * would land on another site.
 */
export function safeCallbackPath(value: string | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//")) return "/";
  if (/[\u0000-\u0020\u007f-\u009f\\]/.test(value)) return "/";
  return value;
}

/** SQL: whether the local owner exists with a password (then automatic sign-in is over). */
const OWNER_HAS_PASSWORD = `SELECT 1 AS one FROM users u JOIN auth_accounts a ON a.user_id = u.id
  WHERE u.email = $1 AND a.provider_id = 'credential' AND a.password IS NOT NULL LIMIT 1`;

/**
 * Whether automatic sign-in as the local owner is still open: the server runs in `local` mode and the local owner has
 * not set a password. The sign-in page offers "Continue as Local owner" and pages redirect there only while it is.
 */
export async function localSignInOpen(
  scope: DbScope,
  env: Record<string, string | undefined>,
): Promise<boolean> {
  if (authMode(env) !== "local") return false;
  return (await scope.query<{ one: number }>(OWNER_HAS_PASSWORD, [LOCAL_OWNER_EMAIL])).length === 0;
}

/** The plugin; `env` decides the mode. */
export function localOwnerPlugin(env: Record<string, string | undefined>) {
  return {
    id: "strata-local-owner",
    endpoints: {
      localSignIn: createAuthEndpoint(
        "/local/sign-in",
        { method: "GET", query: z.object({ callbackURL: z.string().max(2000).optional() }) },
        async (ctx) => {
          const host = (ctx.request?.headers.get("host") ?? "").replace(/:\d+$/, "");
          if (authMode(env) !== "local" || !isLoopbackHost(host))
            throw new APIError("NOT_FOUND", {
              message: "Local sign-in is only available on the embedded default.",
            });
          const adapter = ctx.context.internalAdapter;
          const found = await adapter.findUserByEmail(LOCAL_OWNER_EMAIL, { includeAccounts: true });
          const callback = safeCallbackPath(ctx.query?.callbackURL);
          // The owner set a password: automatic sign-in is over; sign in with it.
          if (found?.accounts.some((a) => a.providerId === "credential" && a.password))
            throw ctx.redirect(`/sign-in?next=${encodeURIComponent(callback)}`);
          let user = found?.user;
          if (!user)
            user = await adapter.createUser(
              { email: LOCAL_OWNER_EMAIL, name: LOCAL_OWNER_NAME, emailVerified: true },
              { method: "local-owner" },
            );
          const session = await adapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          throw ctx.redirect(callback);
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
