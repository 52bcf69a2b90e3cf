import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { sessionFilesUrl, uniqueName } from "./helpers";

const tree = (page: Page) => page.getByRole("tree", { name: "Files" });
const item = (page: Page, name: string) => tree(page).getByRole("treeitem", { name, exact: true });
const rowPaths = (page: Page) =>
  tree(page)
    .getByRole("treeitem")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-path")));
const editor = (page: Page) => page.getByTestId("editor");
const projectIdOf = (page: Page) => new URL(page.url()).pathname.split("/").pop() as string;

async function treePaths(page: Page): Promise<string[]> {
  const res = await page.request.get(await sessionFilesUrl(page, projectIdOf(page), "/tree"));
  return ((await res.json()) as { entries: { path: string }[] }).entries.map((e) => e.path);
}
async function stored(page: Page, path: string): Promise<string | number> {
  const res = await page.request.get(
    await sessionFilesUrl(page, projectIdOf(page), `/file?path=${encodeURIComponent(path)}`),
  );
  return res.status() === 200 ? ((await res.json()) as { content: string }).content : res.status();
}

test("rename with F2 (the tab follows, unsaved edit kept), move by drag and drop and Move to…", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("fileops"), {
    "README.md": "# Demo\n",
    "src/a.ts": "export const a = 1;\n",
    "src/lib/b.ts": "export const b = 2;\n",
    "docs/guide.md": "Guide\n",
  });
  await item(page, "src").click();
  await item(page, "a.ts").click();
  await expect(editor(page)).toHaveAttribute("data-path", "src/a.ts");
  await editor(page).locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText("// unsaved\n");
  await expect(page.getByText("Modified", { exact: true })).toBeVisible();

  // F2 on the row: the name is edited in place.
  await item(page, "a.ts").focus();
  await page.keyboard.press("F2");
  const field = tree(page).getByRole("textbox", { name: "Rename src/a.ts" });
  await expect(field).toBeFocused();
  await expect(field).toHaveValue("a.ts");
  await field.fill("main.ts");
  await shot(page, "rename-field");
  await field.press("Enter");
  await expect(item(page, "main.ts")).toBeVisible();
  await expect(item(page, "a.ts")).toHaveCount(0);
  await expect(page.getByRole("tab", { name: /^main\.ts/ })).toBeVisible();
  await expect(editor(page)).toHaveAttribute("data-path", "src/main.ts");
  await expect(editor(page).locator(".view-lines")).toContainText("// unsaved");
  await expect(page.getByText("Modified", { exact: true })).toBeVisible();
  expect(await stored(page, "src/main.ts")).toBe("export const a = 1;\n");
  expect(await stored(page, "src/a.ts")).toBe(404);

  // A taken name is refused with the words of the API, and the field stays open.
  await item(page, "README.md").focus();
  await page.keyboard.press("F2");
  const readme = tree(page).getByRole("textbox", { name: "Rename README.md" });
  await readme.fill("docs");
  await readme.press("Enter");
  await expect(tree(page).getByRole("alert")).toHaveText('"docs" already exists. Choose another name.');
  await shot(page, "rename-taken");
  await readme.press("Escape");
  await expect(item(page, "README.md")).toBeVisible();

  // Drag main.ts onto the docs folder.
  await item(page, "main.ts").dragTo(item(page, "docs"));
  await expect.poll(() => rowPaths(page)).toContain("docs/main.ts");
  await expect(editor(page)).toHaveAttribute("data-path", "docs/main.ts");
  await expect(editor(page).locator(".view-lines")).toContainText("// unsaved");
  expect(await treePaths(page)).toEqual([
    "README.md",
    "docs",
    "docs/guide.md",
    "docs/main.ts",
    "src",
    "src/lib",
    "src/lib/b.ts",
  ]);
  await page.keyboard.press("Control+S");
  await expect.poll(() => stored(page, "docs/main.ts")).toBe("export const a = 1;\n// unsaved\n");

  // A folder with the context menu's Move to…: its whole path is edited.
  await item(page, "lib").click({ button: "right" });
  const menu = page.getByRole("menu", { name: "Actions for src/lib" });
  await expect(menu.getByRole("menuitem")).toHaveText(["Rename F2", "Move to…", "Delete Del"]);
  await shot(page, "context-menu");
  await menu.getByRole("menuitem", { name: "Move to…" }).click();
  const moveField = tree(page).getByRole("textbox", { name: "Move src/lib to" });
  await expect(moveField).toHaveValue("src/lib");
  await moveField.fill("src/lib/inner");
  await moveField.press("Enter");
  await expect(tree(page).getByRole("alert")).toHaveText(
    'Cannot move "src/lib" into itself ("src/lib/inner" is inside it). Choose a folder outside it.',
  );
  await moveField.fill("packages/lib");
  await moveField.press("Enter");
  await expect
    .poll(() => rowPaths(page))
    .toEqual(["docs", "docs/guide.md", "docs/main.ts", "packages", "packages/lib", "src", "README.md"]);
  expect(await stored(page, "packages/lib/b.ts")).toBe("export const b = 2;\n");
  // An expanded folder stays expanded where it moves.
  await item(page, "lib").click();
  await item(page, "lib").dragTo(item(page, "src"));
  await expect
    .poll(() => rowPaths(page))
    .toEqual([
      "docs",
      "docs/guide.md",
      "docs/main.ts",
      "packages",
      "src",
      "src/lib",
      "src/lib/b.ts",
      "README.md",
    ]);
  await shot(page, "after-moves");
});

test("Ctrl+P opens a file by a fuzzy name; the Search panel opens a hit at its line", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("finder"), {
    "README.md": "# Demo\n",
    ".gitignore": "dist/\n",
    "dist/bundle.js": "const needle = 1;\n",
    "src/use-open-files.ts": "export const x = 1;\n",
    "src/lib/b.ts": "// one\n// two\nconst needle = 42;\n// four\n",
    "docs/guide.md": "A Needle in the docs\n",
  });

  await page.keyboard.press("Control+P");
  const finder = page.getByRole("dialog", { name: "Go to file" });
  await expect(finder.getByRole("combobox", { name: "File name" })).toBeFocused();
  await page.keyboard.type("usefi");
  const options = finder.getByRole("option");
  await expect(options.first()).toHaveAttribute("data-path", "src/use-open-files.ts");
  await expect(options.first().locator("mark")).toHaveText(["use", "fi"]);
  await shot(page, "quick-open");
  await page.keyboard.press("Enter");
  await expect(finder).toHaveCount(0);
  await expect(editor(page)).toHaveAttribute("data-path", "src/use-open-files.ts");
  await page.keyboard.press("Control+P");
  await page.keyboard.type("zzzz");
  await expect(finder).toContainText("No file name matches “zzzz”.");
  await page.keyboard.press("Escape");
  await expect(finder).toHaveCount(0);

  await page.keyboard.press("Control+Shift+F");
  const search = page.getByRole("region", { name: "Search" });
  await expect(search.getByRole("textbox", { name: "Search in files" })).toBeFocused();
  await page.keyboard.type("needle");
  await expect(search.getByRole("status")).toHaveText("2 matching lines in 2 files");
  const group = search.getByRole("group", { name: "src/lib/b.ts" });
  await expect(group.locator("mark")).toHaveText(["needle"]);
  await shot(page, "search-results");
  await group.getByRole("button", { name: "3 const needle = 42;" }).click();
  await expect(editor(page)).toHaveAttribute("data-path", "src/lib/b.ts");
  await expect(editor(page).locator(".line-numbers.active-line-number")).toHaveText("3");

  // Case and regex toggles; an invalid pattern says why.
  await search.getByRole("button", { name: "Match case" }).click();
  await expect(search.getByRole("status")).toHaveText("1 matching line in 1 file");
  await search.getByRole("button", { name: "Use regular expression" }).click();
  await search.getByRole("textbox", { name: "Search in files" }).fill("needle = (4");
  await expect(search.getByRole("alert")).toHaveText(
    "Invalid regular expressionregex parse error: Invalid regular expression: /needle = (4/: Unterminated group. Fix the pattern, or turn off .* to search for the text as typed.",
  );
  await shot(page, "search-invalid-regex");

  // The open tabs come back after a reload, in order, the active one in front; a file deleted since is not reopened.
  const tabs = page.getByRole("tablist", { name: "Open files" }).getByRole("tab");
  await expect(tabs).toHaveText(["use-open-files.ts", "b.ts"]);
  await page.reload();
  await expect(tabs).toHaveText(["use-open-files.ts", "b.ts"]);
  await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(editor(page)).toHaveAttribute("data-path", "src/lib/b.ts");
  const gone = await page.request.delete(
    await sessionFilesUrl(
      page,
      projectIdOf(page),
      `/file?path=${encodeURIComponent("src/use-open-files.ts")}`,
    ),
  );
  expect(gone.status()).toBe(200);
  await page.reload();
  await expect(editor(page)).toHaveAttribute("data-path", "src/lib/b.ts");
  await expect(tabs).toHaveText(["b.ts"]);
});

test("another tab sees a new file appear, takes a clean file's change and asks before overwriting edits", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("twotabs"), { "README.md": "# Demo\n", "notes.md": "v1\n" });
  const other = await page.context().newPage();
  await other.goto(page.url());
  await expect(item(other, "README.md")).toBeVisible();
  await item(other, "README.md").click();
  await expect(editor(other).locator(".view-lines")).toContainText("# Demo");
  await item(other, "notes.md").click();
  await expect(editor(other).locator(".view-lines")).toContainText("v1");
  await editor(other).locator(".view-lines").click();
  await other.keyboard.press("Control+End");
  await other.keyboard.insertText("mine\n");

  // A file created in the first tab appears in the second's tree without a reload.
  await page.getByRole("button", { name: "New file", exact: true }).click();
  await page.getByRole("textbox", { name: "New file name" }).fill("fresh.txt");
  await page.getByRole("textbox", { name: "New file name" }).press("Enter");
  await expect(item(page, "fresh.txt")).toBeVisible();
  await expect(item(other, "fresh.txt")).toBeVisible();

  // Changes saved from the first tab: the second's clean README.md follows; its edited notes.md asks.
  // Saved in the same session's working tree (both tabs have it open).
  const put = async (path: string, content: string) =>
    page.request.put(await sessionFilesUrl(page, projectIdOf(page), "/file"), { data: { path, content } });
  expect((await put("README.md", "# Changed elsewhere\n")).status()).toBe(200);
  expect((await put("notes.md", "v2 theirs\n")).status()).toBe(200);
  const notice = other.getByRole("status").filter({ hasText: "Changed elsewhere" });
  await expect(notice).toContainText("notes.md was changed on the server");
  await expect(editor(other).locator(".view-lines")).toContainText("mine");
  await shot(other, "changed-elsewhere");
  await notice.getByRole("button", { name: "Load theirs" }).click();
  await expect(editor(other).locator(".view-lines")).toContainText("v2 theirs");
  await expect(notice).toHaveCount(0);
  await other.getByRole("tab", { name: "README.md" }).click();
  await expect(editor(other).locator(".view-lines")).toContainText("# Changed elsewhere");
  await other.close();
});
