/**
 * Team rules UI in Chromium: two fresh accounts (sign-up through Better Auth), a team created by the owner, the member
 * invited and accepted (organization routes). The owner edits AGENTS.md on /teams/:id/rules and saves (a commit by
 * them); the member sees it, cannot save directly but proposes an edit; the owner approves it on the proposal page;
 * the rules page and the API then hold the member's text and the proposal is listed as decided. Screenshots of both
 * pages are written to test-results/.
 */
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_APP_URL } from "./ports";

const PASSWORD = "correct-horse-battery-staple";

interface Account {
  page: Page;
  email: string;
  name: string;
}

/** A new browser context (not the local owner) signed up as `name`. */
async function signUp(browser: Browser, name: string): Promise<Account> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const res = await page.request.post("/api/auth/sign-up/email", {
    data: { email, password: PASSWORD, name },
    headers: { origin: E2E_APP_URL },
  });
  expect(res.status(), await res.text()).toBe(200);
  return { page, email, name };
}

async function authPost<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const res = await request.post(`/api/auth${path}`, { data, headers: { origin: E2E_APP_URL } });
  const text = await res.text();
  expect(res.status(), `${path}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}

/** Replace the whole Monaco buffer of the rules editor with `text`. */
async function typeInEditor(page: Page, text: string): Promise<void> {
  const editor = page.getByTestId("editor");
  await expect(editor.locator(".monaco-editor")).toBeVisible();
  await editor.locator(".view-lines").click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

/** A fresh owner and member (invited, accepted) of a new team. */
async function createTeam(
  browser: Browser,
): Promise<{ owner: Account; member: Account; team: { id: string } }> {
  const owner = await signUp(browser, "Olive Owner");
  const member = await signUp(browser, "Mia Member");
  const team = await authPost<{ id: string }>(owner.page.request, "/organization/create", {
    name: "Rules UI team",
    slug: `rules-ui-${Date.now().toString(36)}`,
  });
  const invitation = await authPost<{ id: string }>(owner.page.request, "/organization/invite-member", {
    email: member.email,
    role: "member",
    organizationId: team.id,
  });
  await authPost(member.page.request, "/organization/accept-invitation", { invitationId: invitation.id });
  return { owner, member, team };
}

test("owner saves AGENTS.md, member proposes a change, owner approves it", async ({ browser, shot }) => {
  test.setTimeout(180_000);
  const { owner, member, team } = await createTeam(browser);
  const rulesUrl = `/teams/${team.id}/rules`;

  // The owner creates AGENTS.md and commits it directly.
  const o = owner.page;
  await o.goto(rulesUrl);
  await expect(o.getByRole("heading", { name: "Team rules" })).toBeVisible();
  await expect(o.getByRole("button", { name: "Propose change…" })).toHaveCount(0);
  const files = o.getByRole("list", { name: "Rules files" });
  const existing = files.getByRole("button", { name: /^AGENTS\.md/ });
  if ((await existing.count()) > 0) await existing.click();
  else {
    await o.getByLabel("New file path").fill("AGENTS.md");
    await o.getByRole("button", { name: "New file" }).click();
  }
  await typeInEditor(o, "# Team rules\n\nAlways run the tests.\n");
  await o.getByLabel("Commit message").fill("Team instructions");
  await o.getByRole("button", { name: "Save", exact: true }).click();
  await expect(o.getByTestId("rules-commit")).toContainText("by Olive Owner");
  await expect(files.getByRole("button", { name: /^AGENTS\.md/ })).toContainText("changed by Olive Owner");
  await shot(o, "team-rules-owner");

  // The member sees the owner's text; they have no Save, only Propose.
  const m = member.page;
  await m.goto(rulesUrl);
  await expect(m.getByText("Changes go through review")).toBeVisible();
  await m
    .getByRole("list", { name: "Rules files" })
    .getByRole("button", { name: /^AGENTS\.md/ })
    .click();
  await expect(m.getByTestId("editor")).toContainText("Always run the tests.");
  await expect(m.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
  await typeInEditor(m, "# Team rules\n\nAlways run the tests.\nPrefer small commits.\n");
  await m.getByRole("button", { name: "Propose change…" }).click();
  const dialog = m.getByRole("dialog", { name: "Propose a change to the team rules" });
  await expect(dialog.getByLabel("Title")).toHaveValue("Update AGENTS.md");
  await dialog.getByLabel("Description").fill("Small commits are easier to review.");
  await dialog.getByRole("button", { name: "Propose", exact: true }).click();
  await m.waitForURL(/\/rules\/proposals\/[0-9a-f-]+$/);
  const proposalUrl = new URL(m.url()).pathname;
  await expect(m.getByRole("heading", { name: "Update AGENTS.md" })).toBeVisible();
  await expect(m.getByText("Open", { exact: true })).toBeVisible();
  const diff = m.getByTestId("diff-AGENTS.md");
  await expect(diff.locator('[data-kind="add"]')).toHaveText([/\+Prefer small commits\./]);
  await expect(m.getByRole("button", { name: "Approve and merge" })).toHaveCount(0);
  await expect(m.getByRole("button", { name: "Withdraw" })).toBeVisible();
  await m.getByRole("textbox", { name: "Comment" }).fill("Ready for review.");
  await m.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(m.getByRole("region", { name: "Comments" })).toContainText("Ready for review.");
  await shot(m, "team-rules-proposal-member", { fullPage: true });

  // The owner finds it under Open proposals and approves it.
  await o.goto(rulesUrl);
  await o
    .getByRole("region", { name: "Open proposals" })
    .getByRole("link", { name: /Update AGENTS\.md/ })
    .click();
  await expect(o).toHaveURL(proposalUrl);
  await expect(o.getByText("Proposed by Mia Member")).toBeVisible();
  await o.getByRole("button", { name: "Approve and merge" }).click();
  await expect(o.getByText("Approved", { exact: true })).toBeVisible();
  await expect(o.getByText("Merged", { exact: true })).toBeVisible();
  await shot(o, "team-rules-proposal-approved", { fullPage: true });

  // The merged text is in the rules root, and the proposal is listed as decided.
  await o.goto(rulesUrl);
  await expect(o.getByRole("region", { name: "Decided proposals" })).toContainText("Update AGENTS.md");
  await expect(o.getByRole("region", { name: "Decided proposals" })).toContainText("Approved");
  await files.getByRole("button", { name: /^AGENTS\.md/ }).click();
  await expect(o.getByTestId("editor")).toContainText("Prefer small commits.");
  const file = await o.request.get(`/api/workspaces/${team.id}/rules/file?path=AGENTS.md`);
  expect(file.status()).toBe(200);
  expect((await file.json()).content).toBe("# Team rules\n\nAlways run the tests.\nPrefer small commits.\n");
  await shot(o, "team-rules-after-merge");

  // A direct write by the member is refused with the API's words.
  const put = await m.request.put(`/api/workspaces/${team.id}/rules/file?path=AGENTS.md`, {
    data: { content: "x" },
    headers: { origin: E2E_APP_URL },
  });
  expect(put.status()).toBe(403);
});

test("approving a proposal whose file main changed meanwhile shows the 409 conflict as the API words it", async ({
  browser,
  shot,
}) => {
  test.setTimeout(120_000);
  const { owner, member, team } = await createTeam(browser);
  const api = `/api/workspaces/${team.id}/rules`;
  const headers = { origin: E2E_APP_URL };
  const first = await owner.page.request.put(`${api}/file?path=AGENTS.md`, {
    data: { content: "one\n" },
    headers,
  });
  expect(first.status()).toBe(200);
  const created = await member.page.request.post(`${api}/proposals`, {
    data: { title: "Two", description: "", changes: [{ path: "AGENTS.md", content: "two\n" }] },
    headers,
  });
  expect(created.status()).toBe(201);
  const { proposal } = (await created.json()) as { proposal: { id: string } };
  const moved = await owner.page.request.put(`${api}/file?path=AGENTS.md`, {
    data: { content: "three\n" },
    headers,
  });
  expect(moved.status()).toBe(200);

  const o = owner.page;
  await o.goto(`/teams/${team.id}/rules/proposals/${proposal.id}`);
  await o.getByRole("button", { name: "Approve and merge" }).click();
  const alert = o.getByRole("alert").filter({ hasText: "Could not approve" });
  await expect(alert).toContainText(
    "main changed AGENTS.md since this proposal; the author must update it. (conflict) Nothing was merged.",
  );
  await expect(o.getByText("Open", { exact: true })).toBeVisible();
  await shot(o, "team-rules-conflict");
});
