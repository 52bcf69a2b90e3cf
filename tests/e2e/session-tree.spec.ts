import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

const dialog = (page: Page) => page.getByRole("dialog", { name: "Session tree" });
const list = (page: Page) => dialog(page).getByRole("listbox", { name: "Session entries" });
const rows = (page: Page) => list(page).getByRole("option");
const selectedRow = (page: Page) => list(page).locator('[role="option"][aria-selected="true"]');
const status = (page: Page) => dialog(page).locator("[aria-live]");

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expectIdle(page);
}

test("the session tree: branches, filters, keyboard moves, fork, label, rename", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  test.setTimeout(120_000);
  await mock.script({ text: "Answer one." }, { text: "Answer two." }, { text: "Answer two, again." });
  await openProject(page, uniqueName("tree"), { "README.md": "# Demo\n" });
  await send(page, "Question one.");
  await send(page, "Question two.");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Answer two.");

  // Edit the second prompt: its text comes back, the chat shows the path before it; sending makes a sibling branch.
  await page.getByRole("log", { name: "Conversation" }).getByRole("button", { name: "Edit" }).last().click();
  await expect(composer(page)).toHaveValue("Question two.");
  await expect(page.getByTestId("message-user")).toHaveText(["Question one."]);
  // The messages that left the view are said to stay, one click away, until the next send.
  const edited = page.getByRole("status").filter({ hasText: "Editing starts a new branch" });
  await expect(edited).toHaveText(
    /^Editing starts a new branch from here\. The edited message and the 1 after it stay on the previous branch in the session tree\./,
  );
  await shot(page, "edit-notice");
  await send(page, "Question two, again.");
  await expect(edited).toBeHidden();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Answer two, again.");

  // Alt+T opens the tree: both branches, the active one first, the leaf marked.
  await composer(page).press("Alt+t");
  await expect(dialog(page)).toBeVisible();
  await expect(rows(page)).toHaveCount(7);
  await expect(rows(page)).toHaveText([
    /• system\s*System prompt/,
    /• user\s*Question one\./,
    /• assistant\s*Answer one\./,
    /├⊟ • user\s*Question two, again\./,
    /• assistant\s*Answer two, again\.\s*← active/,
    /└⊟ user\s*Question two\./,
    /assistant\s*Answer two\./,
  ]);
  await expect(selectedRow(page)).toContainText("Answer two, again.");
  await expect(status(page)).toHaveText("(5/7)");
  await shot(dialog(page), "tree-open");

  // pi's filters: Ctrl+U user messages only, search narrows, Escape clears the search, Ctrl+D back to default.
  await list(page).press("Control+u");
  await expect(status(page)).toContainText("[user]");
  await expect(rows(page)).toHaveCount(3);
  await list(page).pressSequentially("again");
  await expect(dialog(page).getByRole("searchbox", { name: "Search the tree" })).toHaveValue("again");
  await expect(rows(page)).toHaveText([/Question two, again\./]);
  await shot(dialog(page), "tree-filtered");
  await list(page).press("Escape");
  await expect(rows(page)).toHaveCount(3);
  await list(page).press("Control+d");
  await expect(rows(page)).toHaveCount(7);
  await expect(dialog(page).getByRole("button", { name: "Default" })).toHaveAttribute("aria-pressed", "true");

  // As in pi the selection followed the filters to the nearest shown entry (the edited prompt). Keyboard: down to
  // the first "Question two.", Enter, Enter (Move, conversation only, no summary).
  await expect(selectedRow(page)).toContainText("Question two, again.");
  await list(page).press("ArrowDown");
  await list(page).press("ArrowDown");
  await expect(selectedRow(page)).toContainText("Question two.");
  await list(page).press("Enter");
  const chooser = dialog(page).getByRole("group", { name: "Move to this point" });
  await expect(chooser).toBeVisible();
  await expect(chooser.getByRole("radio", { name: "Conversation only" })).toBeChecked();
  await expect(chooser.getByRole("radio", { name: "Files only" })).toBeEnabled();
  await shot(dialog(page), "tree-move");
  await page.keyboard.press("Enter");
  await expect(dialog(page)).toHaveCount(0);
  await expect(composer(page)).toHaveValue("Question two.");
  await expect(page.getByTestId("message-user")).toHaveText(["Question one."]);
  await expect(page.getByTestId("message-assistant")).toHaveText([/Answer one\./]);
  await shot(page, "after-move");

  // Fork from an assistant message: a new session holding the path up to it, selected.
  const sessionPicker = page.getByRole("combobox", { name: "Session" });
  const before = await sessionPicker.inputValue();
  await composer(page).fill("");
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await rows(page).filter({ hasText: "Answer one." }).click();
  await dialog(page).getByRole("button", { name: "Fork from here" }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect.poll(() => sessionPicker.inputValue()).not.toBe(before);
  await expect(page.getByTestId("message-user")).toHaveText(["Question one."]);
  await expect(page.getByTestId("message-assistant")).toHaveText([/Answer one\./]);

  // Label a node with Shift+L; it shows on its row and in the labeled filter (Ctrl+L).
  await composer(page).press("Alt+t");
  await expect(rows(page)).toHaveCount(3);
  await rows(page).filter({ hasText: "Question one." }).click();
  await expect(selectedRow(page)).toContainText("Question one.");
  await list(page).press("Shift+L");
  const labelInput = dialog(page).getByRole("textbox", { name: "Label (empty to remove):" });
  await labelInput.fill("start here");
  await labelInput.press("Enter");
  await expect(rows(page).filter({ hasText: "Question one." })).toContainText("[start here]");
  await list(page).press("Control+l");
  await expect(rows(page)).toHaveText([/\[start here\]\s*user\s*Question one\./]);

  // Rename the session from the tree.
  await dialog(page).getByRole("button", { name: "Rename" }).click();
  const nameInput = dialog(page).getByRole("textbox", { name: "Session name:" });
  await nameInput.fill("Forked tour");
  await nameInput.press("Enter");
  await expect(dialog(page).getByTitle("Session name")).toHaveText("Forked tour");
  await shot(dialog(page), "tree-labeled");
  await list(page).press("Escape");
  await expect(dialog(page)).toHaveCount(0);
  await expect(sessionPicker.locator("option:checked")).toHaveText("Forked tour");
  expect((await mock.requests()).length).toBe(3);
});
