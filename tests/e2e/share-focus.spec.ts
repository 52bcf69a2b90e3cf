import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

/** Whether the page's focused element lies inside `dialog` (the dialog itself counts). */
const focusInside = (dialog: Locator) => dialog.evaluate((d) => d.contains(document.activeElement));

test("share dialog keeps the keyboard: Tab cycles inside, Shift+Tab wraps, Escape and Close give focus back", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  test.setTimeout(120_000);
  await mock.script({ text: "Hello back." });
  await openProject(page, uniqueName("share-focus"), { "README.md": "# Focus\n" });
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
    if (i === order.length - 2) await shot(dialog, "share-focus");
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
