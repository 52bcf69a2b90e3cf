/**
 * Signing out in the browser: POST Better Auth's `/api/auth/sign-out`, then set `strata_signed_out=1` so local
 * mode does not sign the browser straight back in as the local owner (a successful sign-in clears it), then go
 * to `/sign-in`. Throws an Error with a readable message when the server refuses.
 */
import { ApiError, apiFetch } from "@/components/http/api-fetch";
import { withNext } from "./next-path";

export const SIGNED_OUT_COOKIE = "strata_signed_out";

/** Marks this browser as signed out on purpose (read by the local-owner auto sign-in). */
export function markSignedOut(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain session cookie; the Cookie Store API is not everywhere
  document.cookie = `${SIGNED_OUT_COOKIE}=1; Path=/; SameSite=Lax`;
}

/** Clears the signed-out mark (after a successful sign-in or sign-up). */
export function clearSignedOut(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see markSignedOut
  document.cookie = `${SIGNED_OUT_COOKIE}=; Path=/; SameSite=Lax; Max-Age=0`;
}

/** Signs this browser out and navigates to /sign-in (carrying `next`, a same-origin path to return to). */
export async function signOut(next = "/"): Promise<void> {
  try {
    await apiFetch("/api/auth/sign-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
      credentials: "same-origin",
    });
  } catch (err) {
    // A 401 means already signed out: go on. A failure to reach the server (status 0) keeps its message.
    if (!(err instanceof ApiError) || err.status === 0) throw err;
    if (err.status !== 401)
      throw new Error(`Sign-out failed (HTTP ${err.status}). Reload the page and try again.`);
  }
  markSignedOut();
  window.location.assign(withNext("/sign-in", next));
}
