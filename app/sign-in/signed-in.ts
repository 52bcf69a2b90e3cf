/**
 * For the sign-in and sign-up pages: whether the visitor is already signed in (then the page sends them on to
 * `next`). A database failure here is logged and treated as "not signed in": the form still shows, and the
 * sign-in call itself then says what is wrong.
 */
import { resolveCaller } from "@/lib/auth/caller";
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
