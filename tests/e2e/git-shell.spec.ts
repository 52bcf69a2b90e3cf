import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, uniqueName } from "./helpers";

async function runShell(page: Page, command: string) {
  const before = await page.getByTestId("message-bashExecution").count();
  await composer(page).fill(command);
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-bashExecution")).toHaveCount(before + 1);
  const block = page.getByTestId("message-bashExecution").nth(before);
  await expect(block.locator(".shell-status")).toHaveText(/^exit \d+$/);
  return block;
}

test("!git in a session: status and diff against main, staging; a commit is refused with what to do and main stays", async ({
  page,
  openProject,
  shot,
}) => {
  const name = uniqueName("gitshell");
  await openProject(page, name, { "README.md": "# Demo\n", "src/a.txt": "one\n" });
  const indicator = page.getByRole("status", { name: "Git HEAD" });
  await expect(indicator).toContainText("⎇ main");
  await expect(indicator).toContainText(`Import ${name}.zip`);

  const status = await runShell(page, "!git status --short");
  await expect(status.locator(".shell-status")).toHaveText("exit 0");
  expect(await status.locator("pre").count()).toBeLessThanOrEqual(1);

  await runShell(page, "!echo two >> src/a.txt");
  const diff = await runShell(page, "!git diff --stat");
  await expect(diff.locator("pre")).toHaveText(" src/a.txt | 1 +\n 1 file changed, 1 insertion(+)");

  // Main's HEAD is shared by every session: a commit here would move it, so it is refused with what to do.
  const commit = await runShell(page, '!git commit -am "Second line in a"');
  await expect(commit.locator(".shell-status")).toHaveText("exit 128");
  await expect(commit.locator("pre")).toContainText(
    "fatal: 'git commit' would move the project's main line, which this session shares",
  );
  await expect(commit.locator("pre")).toContainText("Review and merge into main…");
  await shot(page, "commit-refused", { fullPage: true });

  // Staging works (in the session's own index); the indicator still shows main's commit.
  const staged = await runShell(page, "!git add src/a.txt && git status --short");
  await expect(staged.locator("pre")).toHaveText("M  src/a.txt");
  const log = await runShell(page, "!git log --oneline");
  expect(await log.locator("pre").textContent()).toMatch(new RegExp(`^[0-9a-f]{7} Import ${name}\\.zip\\n$`));
  await page.reload();
  await expect(page.getByRole("status", { name: "Git HEAD" })).toContainText(`Import ${name}.zip`);
});
