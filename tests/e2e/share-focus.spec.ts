/**
 * The share dialog is a real modal for the keyboard (components/ui/use-focus-trap.ts), in Chromium: opened from the
 * session's "⋯" menu it has the focus itself; Tab walks its controls in order and wraps from the last to the first
 * (three full rounds, focus never leaving it), Shift+Tab from the first goes to the last, Escape closes it and the
 * "⋯" button has the focus again. Opened from the session tree, Close gives focus back to "Share this branch…",
 * and closing the tree gives it back to the composer (where Alt+T opened it). A screenshot of the dialog with a
 * focused control goes to $STRATA_E2E_SHOTS (default /tmp/strata-share-shots).
 */
import { mkdirSync } from "node:fs";
import { expect, type Locator, test } from "@playwright/test";
import { mockProviderClient } from "../mock-provider";
import { composer, expectIdle, openZipProject, uniqueName } from "./helpers";
import { E2E_MOCK_URL } from "./ports";

const mock = mockProviderClient(E2E_MOCK_URL);
const SHOTS = process.env.STRATA_E2E_SHOTS ?? "/tmp/strata-share-shots";

/** Whether the page's focused element lies inside `dialog` (the dialog itself counts). */
const focusInside = (dialog: Locator) => dialog.evaluate((d) => d.contains(document.activeElement));

test("share dialog keeps the keyboard: Tab cycles inside, Shift+Tab wraps, Escape and Close give focus back", async ({
  page,
}) => {
  test.setTimeout(120_000);
  mkdirSync(SHOTS, { recursive: true });
  await mock.reset();
  await mock.script({ text: "Hello back." });
  await openZipProject(page, uniqueName("share-focus"), { "README.md": "# Focus\n" });
  await composer(page).fill("Say hello.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expectIdle(page);
  await expect(page.getByTestId("message-assistant").last()).toContainText("Hello back.");

  const actions = page.getByRole("button", { name: "Session actions" });
  await actions.click();
  await page.getByRole("menuitem", { name: "Share…" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this branch" });
  await expect(dialog).toBeFocused();
  // The preview and the live links are loaded: every control is enabled and none appears later.
  await expect(dialog).toContainText("No secrets found.");
  await expect(dialog).toContainText("No live links.");
  const publish = dialog.getByRole("button", { name: "Publish link", exact: true });
  await expect(publish).toBeEnabled();

  const order = [
    dialog.getByRole("checkbox", { name: "Include files at this checkpoint" }),
    dialog.getByRole("checkbox", { name: "Include system prompt and rules" }),
    dialog.getByRole("combobox"),
    dialog.getByRole("textbox", { name: "Also redact (your own text, at least 4 characters)" }),
    dialog.getByRole("button", { name: "Add", exact: true }),
    dialog.getByRole("button", { name: "Close", exact: true }),
    publish,
  ];
  for (let i = 0; i < order.length * 3; i++) {
    await page.keyboard.press("Tab");
    await expect(order[i % order.length]).toBeFocused();
    expect(await focusInside(dialog)).toBe(true);
    if (i === order.length - 2) await dialog.screenshot({ path: `${SHOTS}/share-focus.png` });
  }
  // Three rounds end on the last control; one more Tab is the first, Shift+Tab from it the last.
  await page.keyboard.press("Tab");
  await expect(order[0]).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(publish).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(order[5]).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(actions).toBeFocused();

  // From the session tree: the share dialog stacks on the tree; Close returns to its opener, then to the composer.
  await composer(page).press("Alt+t");
  const tree = page.getByRole("dialog", { name: "Session tree" });
  await expect(tree).toBeVisible();
  const shareButton = tree.getByRole("button", { name: "Share this branch…" });
  await shareButton.click();
  await expect(dialog).toBeFocused();
  await expect(publish).toBeEnabled();
  await page.keyboard.press("Shift+Tab");
  await expect(publish).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(order[0]).toBeFocused();
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(shareButton).toBeFocused();
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press("Tab");
    expect(await focusInside(tree)).toBe(true);
  }
  await tree.getByRole("button", { name: "Close the session tree" }).click();
  await expect(tree).toHaveCount(0);
  await expect(composer(page)).toBeFocused();
});
