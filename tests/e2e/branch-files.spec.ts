import type { Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { expect, test } from "./fixtures";
import { composer, expectIdle, sessionFilesUrl, uniqueName } from "./helpers";

const dialog = (page: Page) => page.getByRole("dialog", { name: "Session tree" });
const rows = (page: Page) =>
  dialog(page).getByRole("listbox", { name: "Session entries" }).getByRole("option");
const editor = (page: Page) => page.getByTestId("editor");
const fileItem = (page: Page, name: string) =>
  page.getByRole("tree", { name: "Files" }).getByRole("treeitem", { name, exact: true });
const projectIdOf = (page: Page) => new URL(page.url()).pathname.split("/").pop() as string;

async function stored(page: Page, path: string): Promise<string | number> {
  const res = await page.request.get(
    await sessionFilesUrl(page, projectIdOf(page), `/file?path=${encodeURIComponent(path)}`),
  );
  return res.status() === 200 ? ((await res.json()) as { content: string }).content : res.status();
}

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expectIdle(page);
}

/** Open the tree, select the row with `text`, press Enter and move with `choice`. */
async function moveTo(
  page: Page,
  text: string,
  choice: "Restore files and conversation" | "Conversation only",
) {
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await expect(dialog(page)).toBeVisible();
  const target = rows(page).filter({ hasText: text }).first();
  await target.click();
  // Selected and not where the session already is (Enter there offers no move): the listbox has the keys.
  await expect(target).toHaveAttribute("aria-selected", "true");
  await expect(target).not.toHaveAttribute("aria-current", "true");
  await dialog(page).getByRole("listbox", { name: "Session entries" }).press("Enter");
  const chooser = dialog(page).getByRole("group", { name: "Move to this point" });
  await chooser.getByRole("radio", { name: choice }).check();
  await chooser.getByRole("button", { name: "Move", exact: true }).click();
  await expect(dialog(page)).toHaveCount(0);
}

test("two branches edit one file: restores switch the editor, conversation only keeps it, undo and buffers", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  test.setTimeout(180_000);
  await mock.script(
    { toolCalls: [{ id: "toolu_a", name: "write", input: { path: "notes.md", content: "branch A\n" } }] },
    { text: "Wrote A." },
    { toolCalls: [{ id: "toolu_b", name: "write", input: { path: "notes.md", content: "branch B\n" } }] },
    { text: "Wrote B." },
  );
  await openProject(page, uniqueName("branches"), { "notes.md": "base\n", "README.md": "# Demo\n" });
  await fileItem(page, "notes.md").click();
  await expect(editor(page).locator(".view-lines")).toContainText("base");

  // Branch A.
  await send(page, "Make it A");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Wrote A.");
  await expect(editor(page).locator(".view-lines")).toContainText("branch A");

  // Back to before "Make it A" with its files: the editor shows the base again, the prompt is in the composer.
  await moveTo(page, "Make it A", "Restore files and conversation");
  await expect(composer(page)).toHaveValue("Make it A");
  await expect(editor(page).locator(".view-lines")).toContainText("base");
  expect(await stored(page, "notes.md")).toBe("base\n");

  // Branch B from the same point.
  await send(page, "Make it B");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Wrote B.");
  await expect(editor(page).locator(".view-lines")).toContainText("branch B");
  // The turn's change: notes.md, +1 −1, and the diff shows base → branch B.
  const summary = page.getByTestId("turn-changes");
  await expect(summary).toHaveCount(1);
  await expect(
    summary.locator('[data-testid="turn-file"][data-path="notes.md"]').getByTestId("change-counts"),
  ).toHaveText("+1 −1");
  await shot(page, "branch-b");

  // To A with its files: the editor switches to A, the chat shows A's turn.
  await moveTo(page, "Wrote A.", "Restore files and conversation");
  await expect(editor(page).locator(".view-lines")).toContainText("branch A");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Wrote A.");
  expect(await stored(page, "notes.md")).toBe("branch A\n");
  // And back to B.
  await moveTo(page, "Wrote B.", "Restore files and conversation");
  await expect(editor(page).locator(".view-lines")).toContainText("branch B");
  expect(await stored(page, "notes.md")).toBe("branch B\n");

  // Conversation only: the chat moves to A, the files stay B's.
  await moveTo(page, "Wrote A.", "Conversation only");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Wrote A.");
  await expect(editor(page).locator(".view-lines")).toContainText("branch B");
  expect(await stored(page, "notes.md")).toBe("branch B\n");
  // Undo that move: back on B.
  await page.getByRole("button", { name: "Undo restore" }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Wrote B.");

  // An unsaved buffer survives a switch: typed, not saved, then a move to A with files.
  await editor(page).locator(".view-lines").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText("unsaved line\n");
  await expect(page.getByText("Modified", { exact: true })).toBeVisible();
  await moveTo(page, "Wrote A.", "Restore files and conversation");
  await expect(editor(page).locator(".view-lines")).toContainText("branch A");
  await expect(editor(page).locator(".view-lines")).not.toContainText("unsaved line");
  await shot(page, "after-switch-with-buffer");
  // Undo: B's files with the buffer's text, kept by the restore.
  await page.getByRole("button", { name: "Undo restore" }).click();
  await expect(editor(page).locator(".view-lines")).toContainText("unsaved line");
  expect(await stored(page, "notes.md")).toBe("branch B\nunsaved line\n");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Wrote B.");
  await shot(page, "after-undo");

  // The files at A's answer as a .zip, from the tree.
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await rows(page).filter({ hasText: "Wrote A." }).first().click();
  const download = dialog(page).getByRole("link", { name: "Download files" });
  await expect(download).toHaveAttribute("href", /\/archive\?commit=[0-9a-f]{40}$/);
  const zip = await page.request.get((await download.getAttribute("href")) as string);
  expect(zip.status()).toBe(200);
  expect(strFromU8(unzipSync(new Uint8Array(await zip.body()))["notes.md"])).toBe("branch A\n");
  await shot(dialog(page), "tree-at-a");

  // Fork from A's answer: a new session with A's path and A's files.
  const picker = page.getByRole("combobox", { name: "Session", exact: true });
  const before = await picker.inputValue();
  await dialog(page).getByRole("button", { name: "Fork from here" }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect.poll(() => picker.inputValue()).not.toBe(before);
  await expect(page.getByTestId("message-user")).toHaveText(["Make it A"]);
  await expect(editor(page).locator(".view-lines")).toContainText("branch A");
  expect(await stored(page, "notes.md")).toBe("branch A\n");
  expect((await mock.requests()).length).toBe(4);

  // The fork's file switch can be undone: the fork's own files are the main line's again, the fork's chat stays.
  const forkNotice = page.getByRole("status").filter({ hasText: "Forked with the files of that point" });
  await expect(forkNotice).toBeVisible();
  await forkNotice.getByRole("button", { name: "Undo restore" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Files put back as they were before the fork" }),
  ).toBeVisible();
  await expect(editor(page).locator(".view-lines")).not.toContainText("branch");
  await expect(editor(page).locator(".view-lines")).toContainText("base");
  expect(await stored(page, "notes.md")).toBe("base\n");
  await expect(page.getByTestId("message-user")).toHaveText(["Make it A"]);
  await shot(page, "fork-undone");
  // The session forked from has its own working tree, untouched by the fork: B's file with the kept line.
  await picker.selectOption(before);
  await expect(editor(page).locator(".view-lines")).toContainText("unsaved line");
  expect(await stored(page, "notes.md")).toBe("branch B\nunsaved line\n");
});
