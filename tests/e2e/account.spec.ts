import { request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_APP_URL } from "./ports";

test.use({ storageState: { cookies: [], origins: [] }, viewport: { width: 1280, height: 860 } });

test("sign up, change password, sign out, wrong password, sign in, token shown once, revoked token refused", async ({
  page,
  context,
  shot,
}) => {
  const stamp = Date.now().toString(36);
  const email = `ada-${stamp}@example.test`;
  const first = "first password 1";
  const second = "second password 2";

  // Sign-up, with the too-short password refused before it is sent.
  await page.goto("/sign-up");
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  // Hydrated (the submit button is enabled only then): text typed before it would be reset.
  await expect(page.getByRole("button", { name: "Create account", exact: true })).toBeEnabled();
  await page.getByLabel("Name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("short");
  await shot(page, "sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  const signUpForm = page.getByRole("form", { name: "Create account" });
  await expect(signUpForm.getByRole("alert")).toHaveText(
    /The password is too short: use at least 8 characters\.$/,
  );
  await page.getByLabel("Password", { exact: true }).fill(first);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  const accountMenu = page.getByRole("button", { name: `Account menu (${email})` });
  await expect(accountMenu).toBeVisible();

  // The account menu, by keyboard: ArrowDown opens on the first item, Escape closes back on the button. Enabled once
  // hydrated (a key pressed before would reach no handler).
  await expect(accountMenu).toBeEnabled();
  await accountMenu.focus();
  await page.keyboard.press("ArrowDown");
  const menu = page.getByRole("menu", { name: `Account menu (${email})` });
  await expect(menu).toContainText("Ada Lovelace");
  await expect(menu.getByRole("menuitem", { name: "Settings" })).toBeFocused();
  await shot(page, "header-account-menu");
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Shared links" })).toHaveAttribute(
    "href",
    "/settings#shares",
  );
  await expect(menu.getByRole("menuitem", { name: "Shared links" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(accountMenu).toBeFocused();

  // The workspace switcher: personal, no teams yet, New team.
  const switcher = page.getByRole("button", { name: /^Switch workspace/ });
  await switcher.click();
  const wsMenu = page.getByRole("menu", { name: /^Switch workspace/ });
  await expect(wsMenu.getByRole("menuitem", { name: /Personal/ })).toHaveAttribute("aria-current", "page");
  await expect(wsMenu.getByRole("menuitem", { name: "New team…" })).toHaveAttribute("href", "/teams/new");
  // The workspace's settings (provider keys, the sandbox) are one click away in a personal workspace too.
  await expect(wsMenu.getByRole("menuitem", { name: "Workspace settings (keys, sandbox)" })).toHaveAttribute(
    "href",
    /^\/workspaces\/[0-9a-f-]{36}\/settings$/,
  );
  await shot(page, "header-workspace-menu");
  await page.keyboard.press("Escape");

  // The user guide is one click away: its sections and its screenshots load.
  await page.getByRole("link", { name: "Guide", exact: true }).click();
  await expect(page).toHaveURL(/\/guide$/);
  await expect(page.getByRole("heading", { level: 1, name: "Using Strata" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText([
    "Start and sign in",
    "Import a project",
    "Work with the agent",
    "Run the tests",
    "See and undo what the agent did",
    "Branch the conversation",
    "Share a branch",
    "Work in a team",
    "Read the inspector",
  ]);
  const homeShot = page.getByRole("img", { name: "The home page with a Git URL typed in" });
  await homeShot.scrollIntoViewIfNeeded();
  await expect
    .poll(() => homeShot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await shot(page, "guide");

  // Settings: change the password (and sign out other devices).
  await page.goto("/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Account settings" })).toBeVisible();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  const sessions = page.getByRole("region", { name: "Sessions" });
  await expect(sessions.getByText("This device")).toBeVisible();
  const password = page.getByRole("region", { name: "Change password" });
  await password.getByLabel("Current password").fill(first);
  await password.getByLabel("New password", { exact: true }).fill(second);
  await password.getByLabel("Confirm new password").fill(second);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByRole("status")).toHaveText(
    "Password changed. Your other devices were signed out.",
  );
  await shot(page, "settings", { fullPage: true });

  // Sign out from the header: the sign-in page, and the mark that keeps local mode from signing back in.
  await page.getByRole("button", { name: `Account menu (${email})` }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/sign-in`);
  expect((await context.cookies()).find((c) => c.name === "strata_signed_out")?.value).toBe("1");
  await page.goto("/settings");
  await expect(page).toHaveURL(`${E2E_APP_URL}/sign-in?next=%2Fsettings`);
  await expect(page.getByRole("link", { name: "Continue as Local owner" })).toHaveAttribute(
    "href",
    "/api/auth/local/sign-in?callbackURL=%2Fsettings",
  );

  // The old password is refused inline; the new one signs in and returns to ?next=.
  // Hydrated (the submit button is enabled only then): text typed before it would be reset.
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeEnabled();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(first);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toHaveText(
    /Wrong email or password\. Check both and try again\.$/,
  );
  await shot(page, "sign-in-error");
  await page.getByLabel("Password", { exact: true }).fill(second);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/settings`);
  expect((await context.cookies()).find((c) => c.name === "strata_signed_out")).toBeUndefined();

  // A token: shown once, works as Bearer, listed without its secret, revoked → 401.
  const tokens = page.getByRole("region", { name: "Access tokens" });
  await expect(tokens.getByText("No tokens yet.")).toBeVisible();
  await tokens.getByLabel("Token name").fill("e2e laptop");
  await tokens.getByLabel("Expires after (days)").fill("30");
  await tokens.getByRole("button", { name: "Create token" }).click();
  const reveal = page.getByRole("region", { name: "New token e2e laptop" });
  await expect(reveal).toContainText("Copy it now — you will not see it again.");
  const token = await reveal.getByLabel("New personal access token", { exact: true }).inputValue();
  expect(token).toMatch(/^strata_[A-Za-z0-9_-]{20,}$/);
  await expect(reveal).toContainText(`npx strata --server ${E2E_APP_URL} --token ${token} session export`);
  await shot(page, "settings-token-created");

  const api = await request.newContext({ baseURL: E2E_APP_URL });
  try {
    const me = await api.get("/api/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(200);
    expect((await me.json()).user).toMatchObject({ email, name: "Ada Lovelace" });

    await reveal.getByRole("button", { name: "I have copied it" }).click();
    await expect(reveal).toHaveCount(0);
    await page.reload();
    const row = tokens.getByRole("row", { name: /e2e laptop/ });
    await expect(row).toContainText(token.slice(0, 10));
    expect(await page.content()).not.toContain(token);

    await row.getByRole("button", { name: "Revoke token e2e laptop" }).click();
    await row.getByRole("button", { name: "Revoke", exact: true }).click();
    await expect(tokens.getByRole("status")).toHaveText("Token “e2e laptop” revoked; it no longer works.");
    await expect(tokens.getByText("No tokens yet.")).toBeVisible();

    const refused = await api.get("/api/me", { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe("token_invalid");
  } finally {
    await api.dispose();
  }

  // The sign-in and sign-up pages as a signed-out visitor sees them.
  await page.getByRole("button", { name: `Account menu (${email})` }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/sign-in`);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to Strata" })).toBeVisible();
  await shot(page, "sign-in");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/sign-up`);
  // Hydrated (the submit button is enabled only then): text typed before it would be reset.
  await expect(page.getByRole("button", { name: "Create account", exact: true })).toBeEnabled();
  await page.getByLabel("Name").fill("Someone");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("form", { name: "Create account" }).getByRole("alert")).toHaveText(
    /An account with this email already exists\. Sign in instead, or use another email\. Sign in$/,
  );
  await shot(page, "sign-up-taken");
});
