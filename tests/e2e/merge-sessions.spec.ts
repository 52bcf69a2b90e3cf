import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, expectIdle, sessionFilesUrl, uniqueName } from "./helpers";

const editor = (page: Page) => page.getByTestId("editor").locator(".view-lines");
const fileItem = (page: Page, name: string) =>
  page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name, exact: true });
const picker = (page: Page) => page.getByRole("combobox", { name: "Session", exact: true });

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expectIdle(page);
}

test("two sessions change one file: each shows its own; A merges, B's conflict is resolved in the browser; C starts from the merged main", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  test.setTimeout(180_000);
  await mock.script(
    { toolCalls: [{ id: "toolu_a", name: "write", input: { path: "notes.md", content: "from A\n" } }] },
    { text: "Wrote A." },
    { toolCalls: [{ id: "toolu_b", name: "write", input: { path: "notes.md", content: "from B\n" } }] },
    { text: "Wrote B." },
  );
  await openProject(page, uniqueName("merge"), { "notes.md": "base\n", "README.md": "# Demo\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;
  await fileItem(page, "notes.md").click();
  await expect(editor(page)).toContainText("base");

  // Session A writes notes.md.
  await send(page, "Write A");
  await expect(editor(page)).toContainText("from A");
  const a = await picker(page).inputValue();

  // Session B starts from main (not A's file) and writes it differently.
  await page.getByRole("button", { name: "New session" }).click();
  await expect.poll(() => picker(page).inputValue()).not.toBe(a);
  const b = await picker(page).inputValue();
  await expect(editor(page)).toContainText("base");
  await send(page, "Write B");
  await expect(editor(page)).toContainText("from B");

  // Switching sessions switches the files shown.
  await picker(page).selectOption(a);
  await expect(editor(page)).toContainText("from A");
  await picker(page).selectOption(b);
  await expect(editor(page)).toContainText("from B");

  // A merges into main cleanly, from the review page.
  await page.goto(`/projects/${projectId}/sessions/${a}/merge`);
  await expect(page.getByRole("heading", { name: "1 file · 0 conflicts" })).toBeVisible();
  await expect(page.getByRole("complementary")).toContainText("the agent's changes");
  await expect(page.getByTestId("merge-diff")).toContainText("from A");
  await shot(page, "merge-review");
  await page.getByRole("button", { name: "Merge into main", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Merged into main" })).toContainText(
    "1 file changed",
  );

  // B's change clashes with the merged main: a conflict, resolved by typing the file's text.
  await page.goto(`/projects/${projectId}/sessions/${b}/merge`);
  await expect(page.getByRole("heading", { name: "1 file · 1 conflict" })).toBeVisible();
  const merge = page.getByRole("button", { name: "Merge into main", exact: true });
  await expect(merge).toBeDisabled();
  const conflict = page.getByTestId("conflict-editor").locator(".view-lines");
  await expect(conflict).toContainText("<<<<<<< main");
  await shot(page, "merge-conflict");
  await conflict.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("from A and B");
  await expect(conflict).toHaveText("from A and B");
  await expect(merge).toBeEnabled();
  await merge.click();
  await expect(page.getByRole("status").filter({ hasText: "Merged into main" })).toContainText(
    "1 file changed",
  );
  const main = await page.request.get(`/api/projects/${projectId}/file?path=notes.md`);
  expect(((await main.json()) as { content: string }).content).toBe("from A and B");

  // A new session starts from the merged main; B keeps its own file.
  await page.goto(`/projects/${projectId}`);
  await expect(picker(page)).toHaveValue(b);
  await page.getByRole("button", { name: "New session" }).click();
  await expect.poll(() => picker(page).inputValue()).not.toBe(b);
  await fileItem(page, "notes.md").click();
  await expect(editor(page)).toContainText("from A and B");
  await picker(page).selectOption(b);
  await expect(editor(page)).toContainText("from B");
});

test("a session that started before a merge brings main's changes in from the session menu, taking main's side of a conflict; the link back opens it", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  test.setTimeout(120_000);
  await mock.script(
    { toolCalls: [{ id: "toolu_a", name: "write", input: { path: "notes.md", content: "from A\n" } }] },
    { text: "Wrote A." },
  );
  await openProject(page, uniqueName("pull-main"), { "notes.md": "base\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;
  await send(page, "Write A");
  const a = await picker(page).inputValue();
  // B starts now, from main before A's merge.
  await page.getByRole("button", { name: "New session" }).click();
  await expect.poll(() => picker(page).inputValue()).not.toBe(a);
  const b = await picker(page).inputValue();
  const saved = await page.request.put(await sessionFilesUrl(page, projectId, "/file"), {
    data: { path: "notes.md", content: "from B\n" },
  });
  expect(saved.status()).toBe(200);
  await page.goto(`/projects/${projectId}/sessions/${a}/merge`);
  await page.getByRole("button", { name: "Merge into main", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Merged into main" })).toBeVisible();

  // Back in the IDE on B: its notes.md is its own; the session menu brings main in.
  await page.goto(`/projects/${projectId}`);
  await expect(picker(page)).toHaveValue(b);
  await fileItem(page, "notes.md").click();
  await expect(editor(page)).toContainText("from B");
  await page.getByRole("button", { name: "Session actions" }).click();
  await page.getByRole("menuitem", { name: "Bring main's changes into this session…" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Bring main's changes into “.+”$/);
  await expect(page.getByRole("heading", { name: "1 file · 1 conflict" })).toBeVisible();
  await expect(page.getByRole("complementary")).toContainText("Main's commits this brings");
  await expect(page.getByRole("complementary")).toContainText('Merge session "');
  const conflict = page.getByTestId("conflict-editor").locator(".view-lines");
  await expect(conflict).toContainText(">>>>>>> main");
  await page.getByRole("button", { name: "Use main's" }).click();
  await expect(conflict).toHaveText("from A");
  await shot(page, "pull-main-review");
  await page.getByRole("button", { name: "Bring into this session", exact: true }).click();
  const done = page.getByRole("status").filter({ hasText: "Main's changes are in this session" });
  await expect(done).toContainText("1 file changed");

  // The link back opens B, now with main's notes.md; main and A are as they were.
  await done.getByRole("link", { name: "Back to the project" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}\\?session=${b}$`));
  await expect(picker(page)).toHaveValue(b);
  await fileItem(page, "notes.md").click();
  await expect(editor(page)).toContainText("from A");
  const main = await page.request.get(`/api/projects/${projectId}/file?path=notes.md`);
  expect(((await main.json()) as { content: string }).content).toBe("from A\n");
});
