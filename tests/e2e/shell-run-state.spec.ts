import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, uniqueName } from "./helpers";

const shellIndicator = (page: Page) => page.getByRole("status", { name: "Shell command running" });
const abortButton = (page: Page) => page.getByRole("button", { name: "Abort", exact: true });
/** The number of entries the session tree shows (its status line `(i/n)`), read by opening and closing it. */
async function treeCount(page: Page): Promise<number> {
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Session tree" });
  const status = dialog.locator("[aria-live]");
  await expect(status).toHaveText(/^\(\d+\/\d+\)/);
  const n = Number(/\/(\d+)\)/.exec((await status.textContent()) ?? "")?.[1]);
  await dialog.getByRole("button", { name: "Close the session tree" }).click();
  await expect(dialog).toHaveCount(0);
  return n;
}

async function sendShell(page: Page, command: string) {
  await composer(page).fill(command);
  await composer(page).press("Enter");
}

test("a !command: its indicator and Abort, a reload keeps it this tab's and can stop it, the command is not refilled", async ({
  page,
  openProject,
  shot,
}) => {
  await openProject(page, uniqueName("shellrun"), { "README.md": "# Demo\n" });
  const before = await treeCount(page);

  // A quick command: the tree's count grows by one without a reload.
  await sendShell(page, "!echo one");
  await expect(page.getByTestId("message-bashExecution").locator(".shell-status")).toHaveText("exit 0");
  await expect.poll(() => treeCount(page)).toBe(before + 1);

  // A slow one (it runs until aborted: nothing here waits for it to end on its own), the starting tab shows what
  // runs, and Abort.
  await sendShell(page, "!sleep 300 && echo slept");
  await expect(shellIndicator(page)).toBeVisible();
  await expect(shellIndicator(page)).toHaveText("Shell command running");
  await expect(abortButton(page)).toBeVisible();
  await expect(composer(page)).toHaveValue("");
  await shot(page, "shell-running-here");

  // Until the server has taken the command (its POST answered with the run's stream) the draft keeps it, so a reload
  // before that rightly brings it back; the indicator shows earlier. Reload once it was taken.
  await expect
    .poll(() =>
      page.evaluate(() =>
        Object.keys(window.localStorage)
          .filter((k) => k.startsWith("strata.draft."))
          .map((k) => window.localStorage.getItem(k))
          .join(""),
      ),
    )
    .toBe("");
  await page.reload();
  await expect(shellIndicator(page)).toBeVisible();
  await expect(shellIndicator(page)).not.toContainText("started elsewhere");
  await expect(page.getByRole("status", { name: "Agent is running" })).toHaveCount(0);
  await expect(
    page.getByText(
      "The shell command this tab started before it was reloaded is still running. Abort stops it.",
    ),
  ).toBeVisible();
  await expect(page.getByText("The agent is working on this session in another tab.")).toHaveCount(0);
  await expect(abortButton(page)).toBeVisible();
  // The command was taken by the server: it does not come back into the composer.
  await expect(composer(page)).toHaveValue("");
  await shot(page, "shell-running-after-reload");

  // The reloaded tab stops it: the command is stored as it ended, cancelled before it printed anything.
  await abortButton(page).click();
  await expect(shellIndicator(page)).toHaveCount(0);
  const slow = page.getByTestId("message-bashExecution").nth(1);
  await expect(slow.locator(".shell-command")).toHaveText("$ sleep 300 && echo slept");
  await expect(slow.locator(".shell-status")).toHaveText("cancelled");
  await expect(slow.locator("pre")).toHaveText("(no output)");
  await expect(composer(page)).toHaveValue("");
  await expect(abortButton(page)).toHaveCount(0);
  await expect.poll(() => treeCount(page)).toBe(before + 2);
  await page.reload();
  await expect(page.getByLabel("Message")).toBeEnabled();
  expect(await treeCount(page)).toBe(before + 2);
  await expect(composer(page)).toHaveValue("");
});

test("Abort stops this tab's !command", async ({ page, openProject }) => {
  await openProject(page, uniqueName("shellabort"), { "README.md": "# Demo\n" });
  await sendShell(page, "!sleep 60");
  await expect(shellIndicator(page)).toBeVisible();
  await abortButton(page).click();
  await expect(shellIndicator(page)).toHaveCount(0);
  await expect(abortButton(page)).toHaveCount(0);
  await expect(composer(page)).toHaveValue("");
});
