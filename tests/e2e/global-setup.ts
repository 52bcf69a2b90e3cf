/**
 * Playwright global setup (after the webServer is up): sign in as the local owner the way a browser on the embedded
 * default is signed in (`GET /api/auth/local/sign-in`, local mode) and save the cookie as the storage state every
 * spec's context and `request` fixture start from. A spec that needs someone else opens its own context with
 * `storageState: { cookies: [], origins: [] }`.
 */
import { request } from "@playwright/test";
import { E2E_APP_URL, E2E_STORAGE_STATE } from "./ports";

export default async function globalSetup(): Promise<void> {
  const context = await request.newContext({ baseURL: E2E_APP_URL });
  try {
    const signIn = await context.get("/api/auth/local/sign-in?callbackURL=%2Fapi%2Fme", { maxRedirects: 0 });
    if (signIn.status() !== 302)
      throw new Error(
        `local sign-in answered ${signIn.status()} (expected 302): ${(await signIn.text()).slice(0, 300)}`,
      );
    const state = await context.storageState({ path: E2E_STORAGE_STATE });
    if (!state.cookies.some((c) => c.name.includes("session_token")))
      throw new Error(
        `local sign-in set no session cookie (got ${state.cookies.map((c) => c.name).join(", ") || "none"})`,
      );
  } finally {
    await context.dispose();
  }
}
