/**
 * Teams end to end in Chromium: the owner (the test's own account) creates a team, invites a second user by invite
 * link and a third by email; they join; the owner changes a role and removes one member; the other leaves. Each extra
 * user is a fresh account with its own browser context (the `newUser` fixture). Screenshots (STRATA_E2E_SHOTS): the
 * team page and the invite page.
 */
import { expect, test } from "./fixtures";
import { E2E_APP_URL } from "./ports";

test("owner creates a team, invites by link and by email, changes a role, removes one; a member leaves", async ({
  page,
  browser,
  shot,
  user,
  newUser,
}) => {
  const teamName = `Platform ${Date.now().toString(36)}`;

  // The owner creates the team: the URL name is derived from the name plus a suffix.
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill(teamName);
  await expect(page.getByLabel("URL name")).toHaveValue(/^platform-[a-z0-9]+-[a-z0-9]{4}$/);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}$/);
  const teamId = new URL(page.url()).pathname.split("/").pop() as string;
  await expect(page.getByRole("heading", { level: 1, name: teamName })).toBeVisible();
  await expect(page.getByRole("link", { name: "Team rules" })).toHaveAttribute(
    "href",
    `/teams/${teamId}/rules`,
  );
  await expect(page.getByRole("link", { name: "Workspace settings" })).toHaveAttribute(
    "href",
    `/workspaces/${teamId}/settings`,
  );
  // The only owner cannot leave.
  await expect(page.getByRole("button", { name: "Leave team" })).toBeDisabled();
  await expect(page.getByText("You are this team's only owner, so you cannot leave")).toBeVisible();

  // An invite link (member, 7 days, 5 uses).
  const linksCard = page.getByRole("region", { name: "Invite links" });
  await linksCard.getByLabel("Role").selectOption("member");
  await linksCard.getByLabel("Max uses").fill("5");
  await linksCard.getByRole("button", { name: "Create link" }).click();
  const linkUrl = await linksCard.getByLabel("New invite link").inputValue();
  expect(linkUrl).toMatch(new RegExp(`^${E2E_APP_URL}/invite/[A-Za-z0-9_-]{43}$`));
  await expect(linksCard.getByRole("cell", { name: "0 / 5" })).toBeVisible();

  // Signed out, the link page offers sign-in / sign-up that come back to it.
  const anonymous = await browser.newContext({
    baseURL: E2E_APP_URL,
    storageState: { cookies: [], origins: [] },
  });
  const visitor = await anonymous.newPage();
  await visitor.goto(linkUrl);
  const linkPath = new URL(linkUrl).pathname;
  await expect(visitor.getByRole("link", { name: "Sign in to join" })).toHaveAttribute(
    "href",
    `/sign-in?next=${encodeURIComponent(linkPath)}`,
  );
  await expect(visitor.getByRole("link", { name: "Create an account to join" })).toHaveAttribute(
    "href",
    `/sign-up?next=${encodeURIComponent(linkPath)}`,
  );
  await shot(visitor, "invite-page-signed-out");
  await anonymous.close();

  // Second user: opens the link, sees the team, joins.
  const bea = await newUser("Bea");
  await bea.page.goto(linkUrl);
  await expect(bea.page.getByRole("heading", { name: `Join ${teamName}` })).toBeVisible();
  await expect(bea.page.getByText(`${user.name} invited you to this team on Strata.`)).toBeVisible();
  await shot(bea.page, "invite-page");
  await bea.page.getByRole("button", { name: `Join ${teamName}` }).click();
  await expect(bea.page).toHaveURL(new RegExp(`/\\?workspace=${teamId}$`));

  // Third user: invited by email as viewer; the invitation link is shown to copy.
  const cal = await newUser("Cal");
  const emailCard = page.getByRole("region", { name: "Invite by email" });
  await emailCard.getByLabel("Email address").fill(cal.user.email);
  await emailCard.getByLabel("Role").selectOption("viewer");
  await emailCard.getByRole("button", { name: "Invite" }).click();
  const invitationUrl = await emailCard.getByLabel(`Invitation link for ${cal.user.email}`).inputValue();
  expect(invitationUrl).toMatch(new RegExp(`^${E2E_APP_URL}/invitations/[0-9a-f-]{36}$`));
  await expect(emailCard.getByTestId(`invitation-${cal.user.email}`)).toBeVisible();

  // Bea (another address) is told whom the invitation is for.
  await bea.page.goto(invitationUrl);
  await expect(
    bea.page.getByText(
      `This invitation is for ${cal.user.email}, but you are signed in as ${bea.user.email}.`,
    ),
  ).toBeVisible();

  await cal.page.goto(invitationUrl);
  await expect(cal.page.getByRole("heading", { name: `Join ${teamName}` })).toBeVisible();
  await cal.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(cal.page).toHaveURL(new RegExp(`/\\?workspace=${teamId}$`));

  // The owner sees both; the link counted one use; Cal is a viewer, promoted to member.
  await page.reload();
  const members = page.getByRole("region", { name: /^Members/ });
  await expect(members.getByTestId(`member-${bea.user.email}`)).toContainText("Bea");
  await expect(members.getByTestId(`member-${cal.user.email}`)).toContainText("Cal");
  await expect(
    page.getByRole("region", { name: "Invite links" }).getByRole("cell", { name: "1 / 5" }),
  ).toBeVisible();
  const calRole = members.getByRole("combobox", { name: "Role of Cal" });
  await expect(calRole).toHaveValue("viewer");
  await calRole.selectOption("member");
  await page.reload();
  await expect(members.getByRole("combobox", { name: "Role of Cal" })).toHaveValue("member");
  await shot(page, "team-page", { fullPage: true });

  // Cal, a member, sees the list read-only and no invitation controls.
  await cal.page.goto(`/teams/${teamId}`);
  await expect(cal.page.getByRole("heading", { level: 1, name: teamName })).toBeVisible();
  await expect(cal.page.getByText("Only owners and admins change members.")).toBeVisible();
  await expect(cal.page.getByRole("combobox")).toHaveCount(0);
  await expect(cal.page.getByRole("link", { name: "Team rules" })).toBeVisible();
  await expect(cal.page.getByRole("link", { name: "Workspace settings" })).toHaveCount(0);
  await expect(cal.page.getByRole("region", { name: "Invite links" })).toHaveCount(0);
  await shot(cal.page, "team-page-member", { fullPage: true });

  // The owner removes Bea (after confirming).
  await members.getByTestId(`member-${bea.user.email}`).getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Remove member" });
  await expect(dialog).toContainText(bea.user.email);
  await dialog.getByRole("button", { name: "Remove" }).click();
  await expect(members.getByTestId(`member-${bea.user.email}`)).toHaveCount(0);
  await bea.page.goto(`/teams/${teamId}`);
  await expect(bea.page.getByText(/not found/i).first()).toBeVisible();

  // Cal leaves.
  await cal.page.getByRole("button", { name: "Leave team" }).click();
  await cal.page
    .getByRole("alertdialog", { name: "Leave team" })
    .getByRole("button", { name: "Leave team" })
    .click();
  await expect(cal.page).toHaveURL(`${E2E_APP_URL}/`);
  await page.reload();
  await expect(
    page.getByRole("region", { name: /^Members/ }).getByTestId(`member-${cal.user.email}`),
  ).toHaveCount(0);
  // The owner deletes the team after typing its name; its page is then the 404 page.
  await page.getByRole("button", { name: "Delete team" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete team" });
  await confirm.getByLabel(`Type ${teamName} to confirm`).fill(teamName);
  await confirm.getByRole("button", { name: "Delete team forever" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  await page.goto(`/teams/${teamId}`);
  await expect(page.getByText(/not found/i).first()).toBeVisible();
});
