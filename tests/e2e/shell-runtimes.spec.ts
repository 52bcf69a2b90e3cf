import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, uniqueName } from "./helpers";

const tree = (page: Page) => page.getByRole("tree", { name: "Files" });
const rowNames = (page: Page) =>
  tree(page)
    .getByRole("treeitem")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-label")));

async function runShell(page: Page, command: string) {
  const before = await page.getByTestId("message-bashExecution").count();
  await composer(page).fill(command);
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-bashExecution")).toHaveCount(before + 1);
  const message = page.getByTestId("message-bashExecution").nth(before);
  await expect(message.locator(".shell-status")).toBeVisible();
  return message;
}

test("!node, !python3 and !sqlite3 run on the project's files; their files show in the tree", async ({
  page,
  openProject,
  shot,
}) => {
  test.setTimeout(120_000);
  await openProject(page, uniqueName("runtimes"), {
    "README.md": "# Demo\n",
    "nums.txt": "1\n2\n3\n",
    "sum.js":
      'const fs = require("fs");\nconsole.log(fs.readFileSync("nums.txt", "utf8").trim().split("\\n").map(Number).reduce((a, b) => a + b));\n',
  });

  const node = await runShell(page, "!node sum.js");
  expect(await node.locator("pre").textContent()).toBe("6\n");
  await expect(node.locator(".shell-status")).toHaveText("exit 0");

  const py = await runShell(
    page,
    `!python3 -c 'open("squares.txt", "w").write(" ".join(str(i*i) for i in range(5)) + "\\n")' && cat squares.txt`,
  );
  expect(await py.locator("pre").textContent()).toBe("0 1 4 9 16\n");
  await expect.poll(() => rowNames(page)).toEqual(["nums.txt", "README.md", "squares.txt", "sum.js"]);

  const sql = await runShell(
    page,
    `!sqlite3 notes.db "create table n(t text); insert into n values ('hello'), ('world'); select group_concat(t, ' ') from n;"`,
  );
  expect(await sql.locator("pre").textContent()).toBe("hello world\n");
  await expect
    .poll(() => rowNames(page))
    .toEqual(["notes.db", "nums.txt", "README.md", "squares.txt", "sum.js"]);
  await shot(page, "runtimes");

  await page.getByRole("treeitem", { name: "squares.txt", exact: true }).click();
  await expect(page.getByRole("tab", { name: "squares.txt" })).toBeVisible();
  await expect(page.locator(".monaco-editor .view-lines")).toContainText("0 1 4 9 16");
});
