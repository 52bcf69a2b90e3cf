/**
 * Renaming and deleting sessions and projects in the IDE (issue 10), end to end in Chromium: the session's "⋯"
 * menu renames it (the name survives a reload and is in the export as pi's session_info) and deletes it after a
 * confirmation that names it (gone from the picker after a reload, 404 from the API); the last session deleted
 * leaves the empty state. Projects are renamed and deleted from the project list and from the project page.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { uniqueName } from "./helpers";

const picker = (page: Page) => page.getByRole("combobox", { name: "Session", exact: true });
const pickerOptions = (page: Page) => picker(page).locator("option").allTextContents();
const selectedLabel = (page: Page) =>
  picker(page).evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent ?? "");
const sessionMenu = (page: Page) => page.getByRole("button", { name: "Session actions", exact: true });

test("a session is renamed and deleted from its menu, with confirmation", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("sess"), { "README.md": "# s\n" });
  const first = await picker(page).inputValue();
  expect(first).toMatch(/^[0-9a-f-]{36}$/);
  const firstLabel = await selectedLabel(page);
  expect(firstLabel).toMatch(/^Session /);
  // The picker's tooltip is the full name.
  await expect(picker(page)).toHaveAttribute("title", firstLabel);

  // Rename through the menu.
  await sessionMenu(page).click();
  const menu = page.getByRole("menu", { name: "Session actions" });
  await expect(menu.getByRole("menuitem")).toHaveText([
    "Rename session…",
    "Share…",
    "Review and merge into main…",
    "Bring main's changes into this session…",
    "Delete session…",
  ]);
  await shot(page, "session-menu");
  await menu.getByRole("menuitem", { name: "Rename session…" }).click();
  const rename = page.getByRole("dialog", { name: "Rename session" });
  await expect(rename.getByRole("button", { name: "Rename" })).toBeDisabled();
  // The field starts with the current name.
  await expect(rename.getByLabel("Session name")).toHaveValue(firstLabel);
  await shot(page, "session-rename-prefilled");
  await rename.getByLabel("Session name").fill("  Parser work  ");
  await shot(page, "session-rename");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(rename).toHaveCount(0);
  await expect.poll(() => selectedLabel(page)).toBe("Parser work");

  await page.reload();
  await expect.poll(() => selectedLabel(page)).toBe("Parser work");
  const exported = await (await page.request.get(`/api/sessions/${first}/export`)).text();
  const lines = exported
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.type)).toEqual(["session", "session_info"]);
  expect(lines[1]).toMatchObject({ name: "Parser work", parentId: null });

  // A second session, deleted after a confirmation that names it.
  await page.getByRole("button", { name: "New session" }).click();
  await expect.poll(() => picker(page).inputValue()).not.toBe(first);
  const second = await picker(page).inputValue();
  const secondLabel = await selectedLabel(page);
  expect(secondLabel).toMatch(/^Session /);
  await sessionMenu(page).click();
  await page.getByRole("menuitem", { name: "Delete session…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete session?" });
  await expect(confirm).toHaveText(
    `Delete session?${secondLabel}Its conversation (every branch), its queued messages and its checkpoint branch strata/session-${second} will be deleted. The project's files stay as they are. This cannot be undone.CancelDelete session`,
  );
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await shot(page, "session-delete-dialog");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  expect(await pickerOptions(page)).toEqual([secondLabel, "Parser work"]);

  await sessionMenu(page).click();
  await page.getByRole("menuitem", { name: "Delete session…" }).click();
  await confirm.getByRole("button", { name: "Delete session" }).click();
  await expect(confirm).toHaveCount(0);
  await expect.poll(() => picker(page).inputValue()).toBe(first);
  expect(await pickerOptions(page)).toEqual(["Parser work"]);
  expect((await page.request.get(`/api/sessions/${second}`)).status()).toBe(404);

  await page.reload();
  await expect.poll(() => selectedLabel(page)).toBe("Parser work");
  expect(await pickerOptions(page)).toEqual(["Parser work"]);

  // The last one: the empty state, from which "New session" starts again.
  await sessionMenu(page).click();
  await page.getByRole("menuitem", { name: "Delete session…" }).click();
  await expect(confirm.getByText("Parser work", { exact: true })).toBeVisible();
  await confirm.getByRole("button", { name: "Delete session" }).click();
  await expect.poll(() => pickerOptions(page)).toEqual(["No session"]);
  await expect(sessionMenu(page)).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "This project has no sessions." })).toHaveText(
    "This project has no sessions. “New session” starts one.",
  );
  await expect(page.getByLabel("Message")).toBeDisabled();
  await expect(page.getByLabel("Message")).toHaveAttribute(
    "placeholder",
    "No session: start one with “New session” above",
  );
  expect((await page.request.get(`/api/sessions/${first}`)).status()).toBe(404);
  await shot(page, "session-empty-state");
  await page.getByRole("button", { name: "New session" }).click();
  await expect(page.getByLabel("Message")).toBeEnabled();
});

test("a session another client is running shows its run live and cannot be deleted; after the run it goes", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: ["Working", " on it."], holdUntilReleased: "del" });
  await openProject(page, uniqueName("busy"), { "README.md": "# b\n" });
  const id = await picker(page).inputValue();
  const label = await selectedLabel(page);
  // A run another client starts (the CLI, another tab), held mid-stream: this tab shows it live, without a reload,
  // and offers no delete while it runs.
  const run = page.request.post(`/api/sessions/${id}/prompt`, {
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    data: { text: "keep busy" },
  });
  await expect(page.getByTestId("message-user")).toHaveText(["keep busy"]);
  await expect(page.getByTestId("message-assistant").last()).toContainText("Working");
  await expect(sessionMenu(page)).toBeDisabled();
  await shot(page, "session-delete-refused");
  // The server refuses it all the same, saying why.
  const refused = await page.request.delete(`/api/sessions/${id}`);
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: { code: string; message: string } }).error).toEqual({
    code: "session_running",
    message: `Session ${id} has a run in progress (an agent run); stop it, then delete the session`,
  });
  expect((await page.request.get(`/api/sessions/${id}`)).status()).toBe(200);

  await mock.release("del");
  expect((await run).status()).toBe(200);
  await expect(page.getByTestId("message-assistant").last()).toContainText("Working on it.");
  await expect(sessionMenu(page)).toBeEnabled();
  await sessionMenu(page).click();
  await page.getByRole("menuitem", { name: "Delete session…" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete session?" });
  await expect(confirm).toContainText(label);
  await confirm.getByRole("button", { name: "Delete session" }).click();
  await expect(confirm).toHaveCount(0);
  expect((await page.request.get(`/api/sessions/${id}`)).status()).toBe(404);
});

test("a project is renamed and deleted from the list and from its page", async ({
  page,
  openProject,
  shot,
}) => {
  const name = uniqueName("proj");
  await openProject(page, name, { "README.md": "# p\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;

  // On its page: rename.
  await page.getByRole("button", { name: `Rename project ${name}` }).click();
  const rename = page.getByRole("dialog", { name: "Rename project" });
  await expect(rename).toContainText(
    `Only the name changes; the folder /${name} and its sessions stay as they are.`,
  );
  await rename.getByLabel("Project name").fill("");
  await expect(rename.getByRole("button", { name: "Rename" })).toBeDisabled();
  await rename.getByLabel("Project name").fill(`${name} renamed`);
  await shot(page, "project-rename");
  await rename.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${name} renamed`);

  // In the list: the new name after a reload; rename again there.
  await page.goto("/");
  const list = page.getByRole("list", { name: "Projects" });
  await expect(list.getByRole("link", { name: `${name} renamed`, exact: true })).toBeVisible();
  await shot(page, "project-list");
  await list.getByRole("button", { name: `Rename project ${name} renamed` }).click();
  await page.getByRole("dialog", { name: "Rename project" }).getByLabel("Project name").fill(`${name} final`);
  await page.getByRole("dialog", { name: "Rename project" }).getByRole("button", { name: "Rename" }).click();
  await expect(list.getByRole("link", { name: `${name} final`, exact: true })).toBeVisible();
  await page.reload();
  await expect(list.getByRole("link", { name: `${name} final`, exact: true })).toBeVisible();

  // Delete from the list, after a confirmation that names what goes.
  await list.getByRole("button", { name: `Delete project ${name} final` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete project?" });
  await expect(confirm).toHaveText(
    `Delete project?${name} final /${name}All files in /${name} (its git repository included) and its 1 session will be deleted. This cannot be undone.CancelDelete project`,
  );
  await shot(page, "project-delete-dialog");
  await confirm.getByRole("button", { name: "Delete project" }).click();
  await expect(confirm).toHaveCount(0);
  const notice = page.getByRole("status").filter({ hasText: `Deleted project “${name} final”` });
  await expect(notice).toContainText(`Removed /${name}, its git repository and its 1 session (`);
  await expect(list.getByRole("link", { name: `${name} final`, exact: true })).toHaveCount(0);
  await shot(page, "project-deleted");
  expect((await page.request.get(`/api/projects/${projectId}`)).status()).toBe(404);
  await page.reload();
  await expect(page.getByRole("link", { name: `${name} final`, exact: true })).toHaveCount(0);

  // Delete from its own page: back home, gone from the list.
  const other = uniqueName("page");
  await openProject(page, other, { "a.txt": "a\n" });
  const otherId = new URL(page.url()).pathname.split("/").pop() as string;
  await page.getByRole("button", { name: `Delete project ${other}` }).click();
  await expect(page.getByRole("alertdialog", { name: "Delete project?" })).toContainText(
    `All files in /${other} (its git repository included) and its 1 session will be deleted. This cannot be undone.`,
  );
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete project" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await expect(page.getByRole("link", { name: other, exact: true })).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: `Deleted project “${other}”` })).toContainText(
    `Removed /${other}, its git repository and its 1 session (`,
  );
  expect((await page.request.get(`/api/projects/${otherId}`)).status()).toBe(404);
  expect((await page.request.get(`/api/projects/${otherId}/sessions`)).status()).toBe(404);
});
