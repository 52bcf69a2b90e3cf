import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, sessionFilesUrl, uniqueName } from "./helpers";

/** The execution service's shell (node, python3, sqlite3 included). */
const NOTE =
  "Strata's shell is simulated: no npm, npx, pip, network or host programs. Available: ls, cat, grep, rg, find, sed, awk, jq, diff, mkdir, cp, mv, rm, git, node, python3, sqlite3 and 68 more.";

const tree = (page: Page) => page.getByRole("tree", { name: "Files" });
const item = (page: Page, name: string) => tree(page).getByRole("treeitem", { name, exact: true });
const rowNames = (page: Page) =>
  tree(page)
    .getByRole("treeitem")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label")));

async function runShell(page: Page, command: string) {
  const before = await page.getByTestId("message-bashExecution").count();
  await composer(page).fill(command);
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-bashExecution")).toHaveCount(before + 1);
  return page.getByTestId("message-bashExecution").nth(before);
}

test("!npm install says what the shell has; !touch shows the new file in the tree at once", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("shell"), { "README.md": "# Demo\n" });

  await composer(page).fill("!npm install");
  await expect(
    page.getByText(
      "Simulated shell: ls, grep, git, node, python3, sqlite3… (hover for all), no npm, pip or network",
    ),
  ).toBeVisible();
  const hint = page.locator(".composer .hint");
  await expect(hint).toHaveAttribute(
    "title",
    /^The project shell is simulated \(just-bash on the project files\)\. Commands: alias awk base64 .* zcat\. Runtimes \(in the execution service\): js-exec node python python3 sqlite3 \(JavaScript on QuickJS, Python 3\.13 standard library, SQLite; no npm or pip packages, no network\)\. Builtins: cd, export, source, test and more \(run !help\)\.$/,
  );
  await shot(page, "composer-shell-hint");
  await composer(page).press("Enter");
  const npm = page.getByTestId("message-bashExecution").first();
  await expect(npm.locator(".shell-command")).toHaveText("$ npm install");
  await expect(npm.locator("pre")).toHaveText(`bash: npm: command not found\n${NOTE}`);
  // The stored output exactly: the not-found line, the note, the final newline.
  expect(await npm.locator("pre").textContent()).toBe(`bash: npm: command not found\n${NOTE}\n`);
  await expect(npm.locator(".shell-status")).toHaveText("exit 127");
  await shot(page, "npm-not-found");

  await expect.poll(() => rowNames(page)).toEqual(["README.md"]);
  const touch = await runShell(page, "!touch new.txt");
  await expect(touch.locator(".shell-status")).toHaveText("exit 0");
  await expect.poll(() => rowNames(page)).toEqual(["new.txt", "README.md"]);

  // A folder alone (no file for git) refreshes the tree too.
  await runShell(page, "!mkdir empty-dir");
  await expect.poll(() => rowNames(page)).toEqual(["empty-dir", "new.txt", "README.md"]);
});

test("New file and New folder from the tree; an existing name is refused", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("newfile"), {
    "README.md": "# Demo\n",
    "src/a.ts": "export const a = 1;\n",
  });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;

  await page.getByRole("button", { name: "New file", exact: true }).click();
  const form = page.getByRole("form", { name: "New file" });
  const name = form.getByRole("textbox", { name: "New file name" });
  await expect(name).toBeFocused();
  await expect(name).toHaveValue("");
  await shot(page, "tree-new-file-form");

  // Validation: empty, traversal, existing.
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByRole("alert")).toHaveText("Enter a name.");
  await name.fill("../outside.txt");
  await name.press("Enter");
  await expect(form.getByRole("alert")).toHaveText(
    'Use a path inside the project: no leading "/", no "." or ".." parts and no empty parts ("//").',
  );
  await name.fill("README.md");
  await name.press("Enter");
  await expect(form.getByRole("alert")).toHaveText('"README.md" already exists. Choose another name.');
  await shot(page, "tree-new-file-exists");

  await name.fill("notes.md");
  await name.press("Enter");
  await expect(form).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "notes.md" })).toBeVisible();
  await expect(item(page, "notes.md")).toHaveAttribute("aria-selected", "true");
  await expect.poll(() => rowNames(page)).toEqual(["src", "notes.md", "README.md"]);

  // New folder, prefilled with nothing at the root; a nested file inside it expands its folder.
  await page.getByRole("button", { name: "New folder", exact: true }).click();
  const folderForm = page.getByRole("form", { name: "New folder" });
  await folderForm.getByRole("textbox", { name: "New folder name" }).fill("src");
  await folderForm.getByRole("button", { name: "Create" }).click();
  await expect(folderForm.getByRole("alert")).toHaveText('"src" already exists. Choose another name.');
  await folderForm.getByRole("textbox", { name: "New folder name" }).fill("docs");
  await folderForm.getByRole("button", { name: "Create" }).click();
  await expect(folderForm).toHaveCount(0);
  await expect.poll(() => rowNames(page)).toEqual(["docs", "src", "notes.md", "README.md"]);

  await page.getByRole("button", { name: "New file", exact: true }).click();
  await page.getByRole("textbox", { name: "New file name" }).fill("docs/guide.md");
  await page.getByRole("textbox", { name: "New file name" }).press("Enter");
  await expect(page.getByRole("tab", { name: "guide.md" })).toBeVisible();
  await expect.poll(() => rowNames(page)).toEqual(["docs", "guide.md", "src", "notes.md", "README.md"]);
  await shot(page, "tree-after-create");

  // Escape closes the form without creating anything.
  await page.getByRole("button", { name: "New file", exact: true }).click();
  await page.getByRole("textbox", { name: "New file name" }).fill("never.txt");
  await page.getByRole("textbox", { name: "New file name" }).press("Escape");
  await expect(page.getByRole("form", { name: "New file" })).toHaveCount(0);

  await page.reload();
  await expect(item(page, "notes.md")).toBeVisible();
  await expect.poll(() => rowNames(page)).toEqual(["docs", "src", "notes.md", "README.md"]);
  const api = await page.request.get(await sessionFilesUrl(page, projectId, `/tree`));
  const entries = ((await api.json()) as { entries: { path: string; kind: string }[] }).entries;
  expect(entries.map((e) => `${e.kind}:${e.path}`)).toEqual([
    "file:README.md",
    "dir:docs",
    "file:docs/guide.md",
    "file:notes.md",
    "dir:src",
    "file:src/a.ts",
  ]);
  const file = await page.request.get(await sessionFilesUrl(page, projectId, `/file?path=notes.md`));
  expect(await file.json()).toEqual({
    path: "notes.md",
    content: "",
    binary: false,
    size: 0,
    tooLarge: false,
  });

  // Missing parent folders are created (this failed only in the production build: a 500).
  await page.getByRole("button", { name: "New file", exact: true }).click();
  await page.getByRole("textbox", { name: "New file name" }).fill("lib/util/deep.ts");
  await page.getByRole("textbox", { name: "New file name" }).press("Enter");
  await expect(page.getByRole("tab", { name: "deep.ts" })).toBeVisible();
  const after = await page.request.get(await sessionFilesUrl(page, projectId, `/tree`));
  const created = ((await after.json()) as { entries: { path: string; kind: string }[] }).entries;
  expect(created.filter((e) => e.path.startsWith("lib")).map((e) => `${e.kind}:${e.path}`)).toEqual([
    "dir:lib",
    "dir:lib/util",
    "file:lib/util/deep.ts",
  ]);
});

test("Ctrl+S at once after typing or pasting saves exactly what the editor shows", async ({
  page,
  openProject,
}) => {
  await openProject(page, uniqueName("ctrls"), { "README.md": "# Demo\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;
  const stored = async (path: string) => {
    const res = await page.request.get(await sessionFilesUrl(page, projectId, `/file?path=${path}`));
    return ((await res.json()) as { content: string }).content;
  };
  const nextPut = () =>
    page.waitForResponse((r) => r.request().method() === "PUT" && r.url().includes("/file"));

  await page.getByRole("button", { name: "New file", exact: true }).click();
  await page.getByRole("textbox", { name: "New file name" }).fill("a1.txt");
  await page.getByRole("textbox", { name: "New file name" }).press("Enter");
  const editor = page.getByTestId("editor");
  await expect(editor).toHaveAttribute("data-path", "a1.txt");
  await expect(editor.locator(".monaco-editor")).toBeVisible();
  await editor.locator(".view-lines").click();

  // The page is busy (a loaded machine) while the keys arrive: they are handled in one go, before React renders
  // the edits. The save sent a render-old copy of the buffer: "hello a1.t" typed, "" pasted.
  const busy = () =>
    page.evaluate(() => {
      setTimeout(() => {
        const end = Date.now() + 800;
        while (Date.now() < end) {
          // Hold the main thread.
        }
      }, 0);
    });
  let put = nextPut();
  await busy();
  await Promise.all([page.keyboard.insertText("hello a1.txt"), page.keyboard.press("Control+S")]);
  let res = await put;
  expect(res.status()).toBe(200);
  expect(res.request().postDataJSON()).toEqual({ path: "a1.txt", content: "hello a1.txt" });
  expect(await stored("a1.txt")).toBe("hello a1.txt");
  await expect(page.getByText("Modified", { exact: true })).toHaveCount(0);

  // A paste (the clipboard, Ctrl+V), then Ctrl+S.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.evaluate(() => navigator.clipboard.writeText("\npasted line 2\nline 3"));
  // Monaco's Ctrl+V reads the clipboard asynchronously: the save goes once the editor shows the paste.
  put = nextPut();
  await page.keyboard.press("Control+V");
  await expect(editor.locator(".view-lines")).toContainText("line 3");
  await busy();
  await page.keyboard.press("Control+S");
  res = await put;
  expect(res.status()).toBe(200);
  expect(res.request().postDataJSON()).toEqual({
    path: "a1.txt",
    content: "hello a1.txt\npasted line 2\nline 3",
  });
  expect(await stored("a1.txt")).toBe("hello a1.txt\npasted line 2\nline 3");
  await expect(page.getByText("Modified", { exact: true })).toHaveCount(0);

  // Real keys too: typed, then Ctrl+S with no wait.
  put = nextPut();
  await page.keyboard.type("!");
  await page.keyboard.press("Control+S");
  res = await put;
  expect(res.request().postDataJSON()).toEqual({
    path: "a1.txt",
    content: "hello a1.txt\npasted line 2\nline 3!",
  });
  expect(await stored("a1.txt")).toBe("hello a1.txt\npasted line 2\nline 3!");
});
