/**
 * Deleting files and folders from the IDE's tree (issue 9: files and folders must be deletable through the
 * API and the IDE), end to end in Chromium: a folder's Delete button asks for confirmation, Cancel keeps it,
 * Delete removes the folder and everything in it from the tree and from the file API, and the editor tab of
 * a file inside it closes. The same in the agent dir page, and a file deleted with the Delete key.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { sessionFilesUrl, uniqueName } from "./helpers";

const tree = (page: Page) => page.getByRole("tree", { name: "Files" });
const item = (page: Page, name: string) => tree(page).getByRole("treeitem", { name, exact: true });
/** The names of the visible tree rows, in order. */
const rowNames = (page: Page) =>
  tree(page)
    .getByRole("treeitem")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label")));

test("a project folder is deleted through the tree, with its open file's tab", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("del"), {
    "README.md": "# Demo\n",
    "src/a.ts": "export const a = 1;\n",
    "src/lib/b.ts": "export const b = 2;\n",
    "docs/guide.md": "Guide\n",
  });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;

  await item(page, "src").click();
  await item(page, "lib").click();
  await item(page, "b.ts").click();
  await expect(page.getByRole("tab", { name: "b.ts" })).toBeVisible();

  await item(page, "src").hover();
  await page.getByRole("button", { name: "Delete src", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete folder?" });
  await expect(dialog).toContainText("src");
  await expect(dialog).toContainText("The folder and everything in it will be deleted.");
  await shot(page, "delete-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(item(page, "src")).toBeVisible();

  await item(page, "src").hover();
  await page.getByRole("button", { name: "Delete src", exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(item(page, "src")).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "b.ts" })).toHaveCount(0);
  await expect.poll(() => rowNames(page)).toEqual(["docs", "README.md"]);
  await shot(page, "after-delete");

  const api = await page.request.get(await sessionFilesUrl(page, projectId, `/tree`));
  expect(api.status()).toBe(200);
  expect(((await api.json()) as { entries: { path: string }[] }).entries.map((e) => e.path)).toEqual([
    "README.md",
    "docs",
    "docs/guide.md",
  ]);
  const gone = await page.request.get(await sessionFilesUrl(page, projectId, `/file?path=src/lib/b.ts`));
  expect(gone.status()).toBe(404);

  // A file, with the keyboard: focus its row and press Delete.
  await item(page, "README.md").focus();
  await page.keyboard.press("Delete");
  await expect(page.getByRole("alertdialog", { name: "Delete file?" })).toContainText("README.md");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete", exact: true }).click();
  await expect.poll(() => rowNames(page)).toEqual(["docs"]);
  const readme = await page.request.get(await sessionFilesUrl(page, projectId, `/file?path=README.md`));
  expect(readme.status()).toBe(404);
});

test("an agent dir folder is deleted through the tree", async ({ page }) => {
  const name = uniqueName("gone");
  await page.goto("/agent");
  await page.getByLabel("New file path").fill(`skills/${name}/SKILL.md`);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("tab", { name: "SKILL.md" })).toBeVisible();
  await item(page, "skills").click();
  await expect(item(page, name)).toBeVisible();

  await item(page, name).hover();
  await page.getByRole("button", { name: `Delete skills/${name}`, exact: true }).click();
  await page
    .getByRole("alertdialog", { name: "Delete folder?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(item(page, name)).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "SKILL.md" })).toHaveCount(0);
  const gone = await page.request.get(`/api/agent/file?path=skills/${name}/SKILL.md`);
  expect(gone.status()).toBe(404);
});
