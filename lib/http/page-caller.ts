/**
 * The pages' side of the one authorisation layer: a server component resolves its caller from the incoming request
 * headers (`next/headers`) with the same `resolveCaller` the routes use (lib/auth/caller.ts). Without a caller it
 * redirects to where the visitor gets in: in `local` mode (lib/auth/mode.ts) on a loopback Host, the local owner's
 * sign-in (`/api/auth/local/sign-in?callbackURL=<path>`) unless the `strata_signed_out=1` cookie says the visitor
 * signed out; otherwise `/sign-in?next=<path>`, or `/sign-up?next=<path>` while no account exists yet.
 */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { type Caller, resolveCaller } from "@/lib/auth/caller";
import { localSignInOpen } from "@/lib/auth/local-owner";
import { type AuthMode, authMode, isLoopbackHost } from "@/lib/auth/mode";
import type { DbScope } from "@/lib/db/client";

/** The cookie the sign-out sets so that local mode does not sign the browser straight back in. */
export const SIGNED_OUT_COOKIE = "strata_signed_out";

/** A workspace as the page header lists it (the GET /api/workspaces row shape). */
export interface PageWorkspace {
  id: string;
  name: string;
  slug: string;
  kind: "personal" | "team";
  role: string;
}

/**
 * A `Request` for `pathname` (path + query, e.g. `/projects/x?y=1`) carrying the incoming request's headers (its
 * cookie, `Host`, …); the origin is `Host` with `X-Forwarded-Proto` (default `http`).
 */
export async function pageRequest(pathname: string): Promise<Request> {
  const incoming = await headers();
  const host = incoming.get("host") ?? "localhost";
  const proto = incoming.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return new Request(new URL(pathname, `${proto}://${host}`), { headers: new Headers(incoming) });
}

/** Whether the incoming request carries `strata_signed_out=1`. */
function signedOut(request: Request): boolean {
  const cookie = request.headers.get("cookie") ?? "";
  return cookie.split(";").some((part) => part.trim() === `${SIGNED_OUT_COOKIE}=1`);
}

/**
 * Where a visitor without a caller goes for `pathname` (see the module docstring).
 * @param hasUsers whether any account exists (accounts mode: sign-up for the very first visitor)
 * @param localOpen whether automatic sign-in as the local owner is still open (lib/auth/local-owner.ts
 *   localSignInOpen: local mode, and the owner has set no password)
 */
export function signInLocation(
  request: Request,
  pathname: string,
  mode: AuthMode,
  hasUsers: boolean,
  localOpen = mode === "local",
): string {
  const host = new URL(request.url).hostname;
  if (mode === "local" && localOpen && isLoopbackHost(host) && !signedOut(request))
    return `/api/auth/local/sign-in?callbackURL=${encodeURIComponent(pathname)}`;
  return `/${hasUsers || mode === "local" ? "sign-in" : "sign-up"}?next=${encodeURIComponent(pathname)}`;
}

/**
 * The caller of the page at `pathname` (path + query, used as the return address), or a redirect to sign in.
 * @returns the caller and the server's auth mode; never returns without one (`redirect()` throws).
 */
export async function requirePageCaller(
  scope: DbScope,
  pathname: string,
): Promise<{ caller: Caller; mode: AuthMode }> {
  const request = await pageRequest(pathname);
  const mode = authMode(process.env);
  const caller = await resolveCaller(scope, request);
  if (caller) return { caller, mode };
  // The sign-up page only for the very first visitor, and only while sign-up is open.
  const hasUsers =
    mode === "local" ||
    process.env.STRATA_SIGNUP === "closed" ||
    (await scope.query<{ one: number }>("SELECT 1 AS one FROM users LIMIT 1")).length > 0;
  redirect(signInLocation(request, pathname, mode, hasUsers, await localSignInOpen(scope, process.env)));
}

/** The personal workspace and teams `userId` is a member of: personal first, then teams by name. */
export async function listPageWorkspaces(scope: DbScope, userId: string): Promise<PageWorkspace[]> {
  return scope.query<PageWorkspace>(
    `SELECT w.id, w.name, w.slug, w.kind, m.role FROM workspace_members m
     JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.user_id = $1 AND w.kind IN ('personal', 'team')
     ORDER BY (w.kind = 'personal') DESC, lower(w.name), w.created_at`,
    [userId],
  );
}
