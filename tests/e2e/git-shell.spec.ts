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

test("!git commit -am in the chat: the IDE's git indicator shows the new commit", async ({
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

  const commit = await runShell(page, '!git commit -am "Second line in a"');
  await expect(commit.locator(".shell-status")).toHaveText("exit 0");
  const text = (await commit.locator("pre").textContent()) ?? "";
  const m = /^\[main ([0-9a-f]{7})\] Second line in a\n 1 file changed, 1 insertion\(\+\)\n$/.exec(text);
  expect(m, text).not.toBeNull();
  const shortOid = m![1];
  await expect(indicator).toContainText(shortOid);
  await expect(indicator).toContainText("Second line in a");
  await shot(page, "indicator-after-commit");

  const log = await runShell(page, "!git log --oneline");
  expect(await log.locator("pre").textContent()).toMatch(
    new RegExp(`^${shortOid} Second line in a\\n[0-9a-f]{7} Import ${name}\\.zip\\n$`),
  );

  // After a reload the indicator reads the same HEAD from the stored repository.
  await page.reload();
  await expect(page.getByRole("status", { name: "Git HEAD" })).toContainText(`${shortOid}Second line in a`);
  await shot(page, "ide-after-reload", { fullPage: true });
});
