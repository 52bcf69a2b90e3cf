/**
 * Issue 11, "What it must show" item 2, end to end in Chromium with four fresh accounts, each in its own browser
 * context (the `newUser` fixture; the sign-up form itself is account.spec.ts's): Olive creates a team at /teams/new, invites Mia as member (invite link) and Ada as
 * admin (email invitation, its copied link); both sign up and accept. Olive imports a project into the team (home
 * `/?workspace=<team>`) and commits the team AGENTS.md on /teams/<id>/rules. Mia opens the team project and prompts:
 * the mock provider's system prompt carries the team file between its markers; Olive changes the file again and
 * Mia's next prompt in the same session carries it as pi's system prompt patch (a system message with only the
 * changed `project_context` section, collapsed into the Anthropic system text); Mia's Context panel names the file
 * (Team, /.team/AGENTS.md, changed by Olive, an ISO time). Mia cannot save the rules root (no Save, PUT → 403), so
 * she proposes; Ada opens the proposal, sees the diff and approves; Mia's next prompt carries the proposed text.
 * Eve, signed up but not in the team, gets 404 on the project's page and API. Screenshots in STRATA_E2E_SHOTS.
 */
import type { Page } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import type { MockProviderClient } from "../mock-provider";
import { type E2EFixtures, expect, test } from "./fixtures";
import { anthropicRequests, composer, expectIdle, messagesOf } from "./helpers";
import { E2E_APP_URL } from "./ports";

const STAMP = Date.now().toString(36);

type NewUser = E2EFixtures["newUser"];

/** A fresh account (the `newUser` fixture) that lands on the IDE home signed in. */
async function signUp(newUser: NewUser, name: string) {
  const person = await newUser(name);
  await person.page.goto("/");
  await expect(
    person.page.getByRole("button", { name: `Account menu (${person.user.email})` }),
  ).toBeVisible();
  return { ...person, name, email: person.user.email };
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

/** The owner/admin saves `text` as the team AGENTS.md on the rules page (a commit by them). */
async function saveTeamAgents(page: Page, teamId: string, text: string, message: string, by: string) {
  await page.goto(`/teams/${teamId}/rules`);
  await expect(page.getByRole("heading", { name: "Team rules" })).toBeVisible();
  const files = page.getByRole("list", { name: "Rules files" });
  const existing = files.getByRole("button", { name: /^AGENTS\.md/ });
  if ((await existing.count()) > 0) await existing.click();
  else {
    await page.getByLabel("New file path").fill("AGENTS.md");
    await page.getByRole("button", { name: "New file" }).click();
  }
  await typeInEditor(page, text);
  await page.getByLabel("Commit message").fill(message);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("rules-commit")).toContainText(`by ${by}`);
  const saved = await page.request.get(`/api/workspaces/${teamId}/rules/file?path=AGENTS.md`);
  expect((await saved.json()).content).toBe(text);
}

interface AnthropicBody {
  system: { text: string }[];
}
const systemText = (body: unknown) => (body as AnthropicBody).system.map((b) => b.text).join("");

/** Sends `text` from the member's composer and waits for the scripted answer; returns the provider's request. */
async function prompt(mock: MockProviderClient, page: Page, text: string, answer: string) {
  const before = anthropicRequests(await mock.requests()).length;
  await mock.script({ text: answer });
  await composer(page).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText(answer);
  await expectIdle(page);
  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(before + 1);
  return requests[before];
}

test("team rules: owner's AGENTS.md reaches the member as a patch, member proposes, admin approves, outsider gets 404", async ({
  newUser,
  mock,
  scopeWorkspace,
  shot,
}) => {
  test.slow();
  const teamName = `Orbit ${STAMP}`;
  const projectName = `orbit-${STAMP}`;
  const README = `Orbit launch checklist ${STAMP}\n`;
  const T1 = "# Orbit team\n\nAlways run the tests before committing.\n";
  const T2 = `${T1}Write commit messages in the imperative.\n`;
  const T3 = `${T2}Prefer small pull requests.\n`;

  // 1. Olive signs up, creates the team; Mia joins by invite link (member), Ada by email invitation (admin).
  const olive = await signUp(newUser, "Olive Owner");
  const o = olive.page;
  await o.goto("/teams/new");
  await o.getByLabel("Team name").fill(teamName);
  await o.getByRole("button", { name: "Create team" }).click();
  await expect(o).toHaveURL(/\/teams\/[0-9a-f-]{36}$/);
  const teamId = new URL(o.url()).pathname.split("/").pop() as string;
  await expect(o.getByRole("heading", { level: 1, name: teamName })).toBeVisible();

  const links = o.getByRole("region", { name: "Invite links" });
  await links.getByLabel("Role").selectOption("member");
  await links.getByRole("button", { name: "Create link" }).click();
  const inviteLink = await links.getByLabel("New invite link").inputValue();
  expect(inviteLink).toMatch(new RegExp(`^${E2E_APP_URL}/invite/[A-Za-z0-9_-]{43}$`));

  const mia = await signUp(newUser, "Mia Member");
  const m = mia.page;
  await m.goto(inviteLink);
  await m.getByRole("button", { name: `Join ${teamName}` }).click();
  await expect(m).toHaveURL(`${E2E_APP_URL}/?workspace=${teamId}`);

  const ada = await signUp(newUser, "Ada Admin");
  const a = ada.page;
  const byEmail = o.getByRole("region", { name: "Invite by email" });
  await byEmail.getByLabel("Email address").fill(ada.email);
  await byEmail.getByLabel("Role").selectOption("admin");
  await byEmail.getByRole("button", { name: "Invite" }).click();
  const invitation = await byEmail.getByLabel(`Invitation link for ${ada.email}`).inputValue();
  expect(invitation).toMatch(new RegExp(`^${E2E_APP_URL}/invitations/[0-9a-f-]{36}$`));
  await a.goto(invitation);
  await a.getByRole("button", { name: "Accept invitation" }).click();
  await expect(a).toHaveURL(`${E2E_APP_URL}/?workspace=${teamId}`);

  await o.reload();
  const members = o.getByRole("region", { name: /^Members/ });
  await expect(members.getByRole("combobox", { name: "Role of Mia Member" })).toHaveValue("member");
  await expect(members.getByRole("combobox", { name: "Role of Ada Admin" })).toHaveValue("admin");
  // The team's model keys: this test's mock scope (tests/e2e/fixtures.ts).
  await scopeWorkspace(olive.user, teamId);

  // 2. Olive imports a project into the team workspace and commits the team AGENTS.md.
  await o.goto(`/?workspace=${teamId}`);
  await expect(o.getByRole("heading", { level: 1, name: teamName })).toBeVisible();
  await expect(o.getByText("Team workspace · your role: owner")).toBeVisible();
  const zip = zipSync({
    [`${projectName}/README.md`]: strToU8(README),
    [`${projectName}/AGENTS.md`]: strToU8("Project rules.\n"),
  });
  await o.getByLabel("Archive").setInputFiles({
    name: `${projectName}.zip`,
    mimeType: "application/zip",
    buffer: Buffer.from(zip),
  });
  await o.getByRole("button", { name: "Import" }).click();
  const openLink = o.getByRole("link", { name: new RegExp(`^Open ${projectName}$`) });
  await expect(openLink).toBeVisible();
  const projectId = ((await openLink.getAttribute("href")) as string).split("/").pop() as string;
  const got = await o.request.get(`/api/projects/${projectId}`);
  expect(got.status()).toBe(200);
  const project = (await got.json()).project as { rootPath: string; name: string };
  expect(project.name).toBe(projectName);
  // The import went to the selected workspace: listed in the team's projects, not in Olive's personal ones.
  const ids = async (path: string) =>
    ((await (await o.request.get(path)).json()).projects as { id: string }[]).map((p) => p.id);
  expect(await ids(`/api/projects?workspaceId=${teamId}`)).toEqual([projectId]);
  expect(await ids("/api/projects")).toEqual([]);

  await saveTeamAgents(o, teamId, T1, "Team instructions", "Olive Owner");

  // 3. Mia opens the team project and prompts: the system prompt carries the team file, before the project's.
  const context = (team: string) =>
    [
      "<project_context>",
      "Project-specific instructions and guidelines:",
      "",
      `<project_instructions path="/.team/AGENTS.md">\n${team}\n</project_instructions>`,
      "",
      `<project_instructions path="${project.rootPath}/AGENTS.md">\nProject rules.\n\n</project_instructions>`,
      "</project_context>",
    ].join("\n");
  await m.goto(`/?workspace=${teamId}`);
  await m
    .getByRole("list", { name: "Projects" })
    .getByRole("link", { name: projectName, exact: true })
    .click();
  await expect(m).toHaveURL(`${E2E_APP_URL}/projects/${projectId}`);
  const panel = m.getByRole("region", { name: "Context", exact: true });
  await expect(panel).toContainText("in effect");
  await expect(composer(m)).toBeEnabled();
  const first = await prompt(mock, m, "What are the team rules?", "Run the tests.");
  expect(systemText(first.body)).toContain(`\n\n${context(T1)}\n\n`);

  // Olive tightens the rules; Mia's next prompt in the same session carries the change as a system prompt patch.
  const beforeSecondSave = Date.now();
  await saveTeamAgents(o, teamId, T2, "Imperative commit messages", "Olive Owner");
  const afterSecondSave = Date.now();
  const second = await prompt(mock, m, "And now?", "Imperative it is.");
  expect(systemText(second.body)).not.toBe(systemText(first.body));
  expect(systemText(second.body)).toBe(systemText(first.body).replace(context(T1), context(T2)));
  expect(messagesOf(second).map((x) => x.role)).toEqual(["user", "assistant", "user"]);
  const { sessions } = (await (await m.request.get(`/api/projects/${projectId}/sessions`)).json()) as {
    sessions: { id: string }[];
  };
  expect(sessions).toHaveLength(1);
  const sessionId = sessions[0].id;
  const stored = (await (await m.request.get(`/api/sessions/${sessionId}`)).json()) as {
    messages: { role: string; content?: unknown; sections?: Record<string, string | null> }[];
  };
  expect(stored.messages.map((x) => x.role)).toEqual([
    "system",
    "user",
    "assistant",
    "system",
    "user",
    "assistant",
  ]);
  // pi's SystemMessage diff: only the changed section; sent in place it reads (pi 3.24):
  const patch = stored.messages[3];
  expect(patch.sections).toEqual({ project_context: context(T2) });
  expect(
    Object.entries(patch.sections ?? {})
      .map(([k, v]) => `Updated system prompt section "${k}":\n\n${v}`)
      .join("\n\n"),
  ).toBe(`Updated system prompt section "project_context":\n\n${context(T2)}`);

  // The transcript shows the patch as a system message after the first answer.
  const systemViews = m.getByTestId("message-system");
  await expect(systemViews).toHaveCount(2);
  await expect(systemViews.nth(0).locator("summary")).toHaveText("System prompt");
  await expect(systemViews.nth(1).locator("summary")).toHaveText(
    "System prompt updated: section project_context",
  );
  await systemViews.nth(1).locator("summary").click();
  await expect(systemViews.nth(1).locator("pre")).toHaveText(
    `Updated system prompt section "project_context":\n\n${context(T2)}`,
  );
  await shot(m.getByRole("log", { name: "Conversation" }), "team-rules-flow-transcript-patch");

  // The Context panel: Team scope, the file's path, Olive as the last author, the exact time in the title.
  await panel.getByRole("button", { name: "Context", exact: true }).click();
  const files = panel.getByRole("region", { name: "Context files" }).getByRole("listitem");
  await expect(files).toHaveCount(2);
  await expect(files.nth(0)).toContainText("Team");
  await expect(files.nth(0)).toContainText("/.team/AGENTS.md");
  await expect(files.nth(0)).toContainText("changed by Olive Owner");
  await expect(files.nth(1)).toContainText("Project");
  await expect(files.nth(1)).toContainText(`${project.rootPath}/AGENTS.md`);
  const changed = files.nth(0).getByText(/^changed by/);
  // The panel reloads its resources when the run ends; under load that answer can come after the panel opens,
  // so the time is polled until it is the second commit's (git keeps whole seconds).
  await expect
    .poll(async () => Date.parse((await changed.getAttribute("title")) ?? ""))
    .toBeGreaterThanOrEqual(Math.floor(beforeSecondSave / 1000) * 1000);
  const iso = (await changed.getAttribute("title")) as string;
  expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(Date.parse(iso)).toBeLessThanOrEqual(afterSecondSave);
  await shot(m, "team-rules-flow-context", { fullPage: true });

  // 4. Mia cannot change the rules root directly: no Save, and the API refuses with 403.
  await m.goto(`/teams/${teamId}/rules`);
  await expect(m.getByText("Changes go through review")).toBeVisible();
  await m
    .getByRole("list", { name: "Rules files" })
    .getByRole("button", { name: /^AGENTS\.md/ })
    .click();
  await expect(m.getByTestId("editor")).toContainText("Write commit messages in the imperative.");
  await expect(m.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
  const put = await m.request.put(`/api/workspaces/${teamId}/rules/file?path=AGENTS.md`, {
    data: { content: "Mia was here.\n" },
    headers: { origin: E2E_APP_URL },
  });
  expect(put.status()).toBe(403);
  expect((await put.json()).error.code).toBe("forbidden");
  await typeInEditor(m, T3);
  await m.getByRole("button", { name: "Propose change…" }).click();
  const dialog = m.getByRole("dialog", { name: "Propose a change to the team rules" });
  await dialog.getByLabel("Title").fill("Small pull requests");
  await dialog.getByLabel("Description").fill("Small changes are easier to review.");
  await dialog.getByRole("button", { name: "Propose", exact: true }).click();
  await m.waitForURL(/\/rules\/proposals\/[0-9a-f-]+$/);
  const proposalPath = new URL(m.url()).pathname;

  // Ada (admin) finds it among the open proposals, sees the diff, approves.
  await a.goto(`/teams/${teamId}/rules`);
  await a
    .getByRole("region", { name: "Open proposals" })
    .getByRole("link", { name: /Small pull requests/ })
    .click();
  await expect(a).toHaveURL(`${E2E_APP_URL}${proposalPath}`);
  await expect(a.getByRole("heading", { name: "Small pull requests" })).toBeVisible();
  await expect(a.getByText("Proposed by Mia Member")).toBeVisible();
  const diff = a.getByTestId("diff-AGENTS.md");
  await expect(diff.locator('[data-kind="add"]')).toHaveText(["5+Prefer small pull requests."]);
  await expect(diff.locator('[data-kind="del"]')).toHaveCount(0);
  await shot(a, "team-rules-flow-proposal", { fullPage: true });
  await a.getByRole("button", { name: "Approve and merge" }).click();
  await expect(a.getByText("Merged", { exact: true })).toBeVisible();
  const merged = await a.request.get(`/api/workspaces/${teamId}/rules/file?path=AGENTS.md`);
  expect((await merged.json()).content).toBe(T3);

  // Mia's next prompt (same session) carries the approved text, again as a patch.
  await m.goto(`/projects/${projectId}`);
  await expect(panel).toContainText("in effect");
  await expect(composer(m)).toBeEnabled();
  const third = await prompt(mock, m, "Anything new?", "Small pull requests.");
  expect(systemText(third.body)).toBe(systemText(first.body).replace(context(T1), context(T3)));
  expect(messagesOf(third).map((x) => x.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  const after = (await (await m.request.get(`/api/sessions/${sessionId}`)).json()) as typeof stored;
  expect(after.messages).toHaveLength(9);
  expect(after.messages[6]).toMatchObject({ role: "system", sections: { project_context: context(T3) } });
  await panel.getByRole("button", { name: "Context", exact: true }).click();
  await expect(files.nth(0)).toContainText("/.team/AGENTS.md");
  // Approval fast-forwarded main to Mia's commit: she is the file's last author.
  await expect(files.nth(0)).toContainText("changed by Mia Member");
  await shot(m, "team-rules-flow-context-merged", { fullPage: true });

  // 5. Eve (signed up, not in the team) gets 404 on the project's page and API, with nothing of the team in it.
  const eve = await signUp(newUser, "Eve Outsider");
  const e = eve.page;
  for (const path of [
    `/projects/${projectId}`,
    `/?workspace=${teamId}`,
    `/teams/${teamId}`,
    `/teams/${teamId}/rules`,
    proposalPath,
  ]) {
    const res = await e.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(e.getByRole("alert").filter({ hasText: "Page not found" })).toBeVisible();
    const html = await e.content();
    for (const s of [projectName, teamName]) expect(html, `${path} shows ${s}`).not.toContain(s);
    if (path === `/projects/${projectId}`) await shot(e, "team-rules-flow-outsider");
  }
  const secrets = [
    projectName,
    teamName,
    "Orbit",
    "launch checklist",
    "Project rules",
    "imperative",
    "Olive",
  ];
  for (const path of [
    `/api/projects/${projectId}`,
    `/api/projects/${projectId}/tree`,
    `/api/sessions/${sessionId}`,
    `/api/workspaces/${teamId}/rules`,
    `/api/workspaces/${teamId}/rules/file?path=AGENTS.md`,
    `/api/projects?workspaceId=${teamId}`,
  ]) {
    const res = await e.request.get(path);
    const body = await res.text();
    expect(res.status(), `${path}: ${body}`).toBe(404);
    expect(JSON.parse(body).error.code, path).toBe("not_found");
    for (const s of secrets) expect(body, `${path} leaks ${s}`).not.toContain(s);
  }
});
