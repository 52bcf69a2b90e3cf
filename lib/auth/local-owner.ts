/**
 * The embedded default's sign-in (a Better Auth plugin): `GET /api/auth/local/sign-in?callbackURL=/path` signs a
 * loopback browser in as the local owner (`owner@strata.localhost`, created if missing) and redirects back. It
 * answers 404 unless the server runs in `local` mode (lib/auth/mode.ts: embedded database, loopback bind) and the
 * request's Host names loopback — the same trust the single-user Strata gave anyone who could reach the port.
 */
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { z } from "zod";
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
          let user = (await adapter.findUserByEmail(LOCAL_OWNER_EMAIL))?.user;
          if (!user)
            user = await adapter.createUser(
              { email: LOCAL_OWNER_EMAIL, name: LOCAL_OWNER_NAME, emailVerified: true },
              { method: "local-owner" },
            );
          const session = await adapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          throw ctx.redirect(safeCallbackPath(ctx.query?.callbackURL));
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
