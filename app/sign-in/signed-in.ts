/**
 * For the sign-in and sign-up pages: whether the visitor is already signed in (then the page sends them on to
 * `next`). A database failure here is logged and treated as "not signed in": the form still shows, and the
 * sign-in call itself then says what is wrong.
 */
import { resolveCaller } from "@/lib/auth/caller";
import { localSignInOpen } from "@/lib/auth/local-owner";
import { type AuthMode, authMode, isLoopbackHost } from "@/lib/auth/mode";
import { withDb } from "@/lib/db/client";
import { pageRequest } from "@/lib/http/page-caller";

/** True when the incoming request carries a valid session cookie. */
export async function isSignedIn(pathname: string): Promise<boolean> {
  try {
    const request = await pageRequest(pathname);
    if (!request.headers.get("cookie")) return false;
    return (await withDb((scope) => resolveCaller(scope, request))) !== null;
  } catch (error) {
    console.error(
      "[strata] sign-in page: could not check the session:",
      error instanceof Error ? error.message : error,
    );
    return false;
  }
}

/** The first value of a search parameter. */
export function param(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/**
 * The mode the sign-in page offers: `local` ("Continue as Local owner") only when the server is in local mode, the
 * page was asked for on a loopback Host (the local sign-in answers 404 otherwise) and the local owner has set no
 * password (setting one ends automatic sign-in: lib/auth/local-owner.ts).
 */
export async function signInMode(): Promise<AuthMode> {
  if (authMode(process.env) !== "local") return "accounts";
  const request = await pageRequest("/sign-in");
  if (!isLoopbackHost(new URL(request.url).hostname)) return "accounts";
  return (await withDb((scope) => localSignInOpen(scope, process.env))) ? "local" : "accounts";
}
