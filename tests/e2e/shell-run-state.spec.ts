/**
 * A `!command` is a run of its own (mode `bash`), end to end in Chromium: the tab that started it shows
 * "Shell command running" and Abort; after a reload the same tab says it is its own shell command (not the agent,
 * not another tab), the composer is not refilled with the command, and stays empty after it finished; the History
 * count follows each command without a reload. Screenshots in /tmp/shots-2b.
 */
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { composer, openZipProject, uniqueName } from "./helpers";

const SHOTS = "/tmp/shots-2b";
const shellIndicator = (page: Page) => page.getByRole("status", { name: "Shell command running" });
const abortButton = (page: Page) => page.getByRole("button", { name: "Abort", exact: true });
const history = (page: Page) => page.getByRole("region", { name: "History" });
/** The History header's count, e.g. "3 entries". */
const historyCount = (page: Page) => history(page).locator(".context-header .muted");

async function sendShell(page: Page, command: string) {
  await composer(page).fill(command);
  await composer(page).press("Enter");
}

test("a !command: its indicator and Abort, a reload keeps it this tab's, the command is not refilled", async ({
  page,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  await openZipProject(page, uniqueName("shellrun"), { "README.md": "# Demo\n" });
  await expect(historyCount(page)).toBeVisible();
  const before = Number.parseInt((await historyCount(page).textContent()) ?? "", 10);

  // A quick command: the History count grows by one without a reload (it stayed one behind).
  await sendShell(page, "!echo one");
  await expect(page.getByTestId("message-bashExecution").locator(".shell-status")).toHaveText("exit 0");
  await expect(historyCount(page)).toHaveText(`${before + 1} entr${before + 1 === 1 ? "y" : "ies"}`);

  // A slow one: the starting tab shows what runs, and Abort.
  await sendShell(page, "!sleep 6 && echo slept");
  await expect(shellIndicator(page)).toBeVisible();
  await expect(shellIndicator(page)).toHaveText("Shell command running");
  await expect(abortButton(page)).toBeVisible();
  await expect(composer(page)).toHaveValue("");
  await page.screenshot({ path: `${SHOTS}/shell-running-here.png` });

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
  await expect(shellIndicator(page)).toBeVisible({ timeout: 30_000 });
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
  await page.screenshot({ path: `${SHOTS}/shell-running-after-reload.png` });

  await expect(shellIndicator(page)).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId("message-bashExecution").last().locator("pre")).toHaveText("slept");
  await expect(composer(page)).toHaveValue("");
  await expect(abortButton(page)).toHaveCount(0);
  await expect(historyCount(page)).toHaveText(`${before + 2} entries`);
  await page.reload();
  await expect(historyCount(page)).toHaveText(`${before + 2} entries`);
  await expect(composer(page)).toHaveValue("");
});

test("Abort stops this tab's !command", async ({ page }) => {
  await openZipProject(page, uniqueName("shellabort"), { "README.md": "# Demo\n" });
  await sendShell(page, "!sleep 60");
  await expect(shellIndicator(page)).toBeVisible();
  await abortButton(page).click();
  await expect(shellIndicator(page)).toHaveCount(0, { timeout: 15_000 });
  await expect(abortButton(page)).toHaveCount(0);
  await expect(composer(page)).toHaveValue("");
});
