/**
 * Issue 14, "See and undo what the agent did", end to end in Chromium: a scripted turn writes two files; the chat
 * shows both under the turn with exact `+/-` counts; the diff view (Monaco's diff editor) shows one's before and
 * after, moves between files with the arrow keys and closes with Escape; a tool call's Diff shows only its file;
 * reverting ONE file of the turn restores exactly that file and leaves the other; after a reload the file is still
 * marked reverted and "Undo revert" gives it the turn's changes back.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, expectIdle, sessionFilesUrl, uniqueName } from "./helpers";

const NOTES_BEFORE = "one\ntwo\nthree\n";
const NOTES_AFTER = "one\nTWO\nthree\nfour\n";
const UTIL = "export function twice(n: number): number {\n  return n * 2;\n}\n";

/**
 * The text of one side of Monaco's diff editor (`original` or `modified`), lines joined by newlines. Reads the
 * editor's own line layer (`.lines-content > .view-lines`): when the dialog is narrower than Monaco's inline
 * breakpoint, deleted lines are drawn in the modified editor as a view zone that also carries `view-lines`. While
 * the editor is (re)mounting the layer may be absent or doubled: that reads as a description, so `expect.poll`
 * (which fails at once on a thrown error) keeps polling until the text matches.
 */
const diffSide = (page: Page, side: "original" | "modified") =>
  page
    .getByTestId("diff-editor")
    .locator(`.editor.${side} .lines-content > .view-lines`)
    .evaluate((el) =>
      [...el.querySelectorAll(".view-line")]
        .map((l) => ({ top: Number.parseFloat((l as HTMLElement).style.top), text: l.textContent ?? "" }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text.replace(/\u00a0/g, " "))
        .join("\n"),
    )
    .catch((error: Error) => `(diff editor not readable: ${error.message.split("\n")[0]})`);

test("a turn's changes: summary with counts, the diff view, and reverting one file", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script(
    {
      text: "Updating the notes.",
      toolCalls: [{ id: "toolu_w1", name: "write", input: { path: "notes.md", content: NOTES_AFTER } }],
    },
    { toolCalls: [{ id: "toolu_w2", name: "write", input: { path: "src/util.ts", content: UTIL } }] },
    { text: "Done: notes updated and a helper added." },
  );
  await openProject(page, uniqueName("turn-diff"), { "notes.md": NOTES_BEFORE, "README.md": "# Demo\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;
  const readProject = async (path: string) => {
    const res = await page.request.get(
      await sessionFilesUrl(page, projectId, `/file?path=${encodeURIComponent(path)}`),
    );
    return res.status() === 200 ? ((await res.json()) as { content: string }).content : res.status();
  };

  // Nothing changed yet: the session's changes are not offered.
  await expect(page.getByRole("button", { name: "Session changes" })).toBeDisabled();
  await composer(page).fill("Update the notes and add a helper.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Done: notes updated");
  await expectIdle(page);

  // The summary under the turn: both files, exact counts.
  const summary = page.getByTestId("turn-changes");
  await expect(summary).toHaveCount(1);
  await expect(summary).toContainText("2 files changed");
  const row = (path: string) => summary.locator(`[data-testid="turn-file"][data-path="${path}"]`);
  await expect(row("notes.md").getByTestId("change-counts")).toHaveText("+2 −1");
  await expect(row("src/util.ts").getByTestId("change-counts")).toHaveText("+3 −0");
  await expect(row("notes.md").locator("abbr")).toHaveText("M");
  await expect(row("src/util.ts").locator("abbr")).toHaveText("A");
  await summary.scrollIntoViewIfNeeded();
  await shot(page, "turn-summary");
  await shot(page.getByRole("region", { name: "Chat" }), "turn-summary-chat");

  // The diff view at notes.md: Monaco's diff editor shows before and after.
  await row("notes.md").getByRole("button", { name: "notes.md", exact: true }).click();
  const view = page.getByRole("dialog", { name: "Changes of this turn" });
  await expect(view).toBeVisible();
  await expect(view.getByTestId("diff-file")).toHaveCount(2);
  await expect(view.locator('[data-testid="diff-file"][aria-current="true"]')).toHaveAttribute(
    "data-path",
    "notes.md",
  );
  await expect.poll(() => diffSide(page, "original")).toBe("one\ntwo\nthree\n");
  await expect.poll(() => diffSide(page, "modified")).toBe("one\nTWO\nthree\nfour\n");
  await shot(page, "diff-view");

  // ArrowDown: the next file (added: empty before).
  await page.keyboard.press("ArrowDown");
  await expect(view.locator('[data-testid="diff-file"][aria-current="true"]')).toHaveAttribute(
    "data-path",
    "src/util.ts",
  );
  await expect(view.getByTestId("diff-editor")).toHaveAttribute("data-path", "src/util.ts");
  await expect.poll(() => diffSide(page, "modified")).toBe(UTIL);
  await page.keyboard.press("Escape");
  await expect(view).toHaveCount(0);

  // A tool call's Diff: only the file that call wrote.
  await page
    .getByTestId("tool-call")
    .filter({ hasText: "src/util.ts" })
    .getByRole("button", { name: "Diff" })
    .click();
  const callView = page.getByRole("dialog", { name: "Changes of write" });
  await expect(callView.getByTestId("diff-file")).toHaveCount(1);
  await expect(callView.getByTestId("diff-file")).toHaveAttribute("data-path", "src/util.ts");
  await callView.getByRole("button", { name: "Close" }).click();
  await expect(callView).toHaveCount(0);

  // Revert ONE file: notes.md is back, src/util.ts stays.
  page.once("dialog", (d) => void d.accept());
  await row("notes.md").getByRole("button", { name: "Revert notes.md" }).click();
  await expect(page.getByTestId("turn-changes")).toContainText("Reverted notes.md.");
  expect(await readProject("notes.md")).toBe(NOTES_BEFORE);
  expect(await readProject("src/util.ts")).toBe(UTIL);
  await shot(page, "after-revert");

  // The whole session against its start: only the helper is left.
  await page.getByRole("button", { name: "Session changes" }).click();
  const sessionView = page.getByRole("dialog", { name: "Session changes" });
  await expect(sessionView.getByTestId("diff-file")).toHaveCount(1);
  await expect(sessionView.getByTestId("diff-file")).toHaveAttribute("data-path", "src/util.ts");
  await page.keyboard.press("Escape");
  await expect(sessionView).toHaveCount(0);

  // The revert stands after a reload: notes.md is marked reverted and offers its undo, not another revert.
  await page.reload();
  await expect(row("notes.md")).toContainText("reverted");
  await expect(row("notes.md").getByRole("button", { name: "Revert notes.md" })).toHaveCount(0);
  await expect(row("src/util.ts").getByRole("button", { name: "Revert src/util.ts" })).toBeVisible();
  // Half the turn is reverted: the head says so, and offers no "Revert turn" (it would revert notes.md again).
  await expect(summary).toContainText("1 of 2 reverted");
  await expect(summary.getByRole("button", { name: "Revert turn" })).toHaveCount(0);
  page.once("dialog", (d) => void d.accept());
  await row("notes.md").getByRole("button", { name: "Undo revert of notes.md" }).click();
  await expect(page.getByTestId("turn-changes")).toContainText(
    "Revert undone: notes.md has this turn's changes again.",
  );
  expect(await readProject("notes.md")).toBe(NOTES_AFTER);
  await expect(row("notes.md").getByRole("button", { name: "Revert notes.md" })).toBeVisible();
  await expect(row("notes.md")).not.toContainText("reverted");
  await expect(summary.getByRole("button", { name: "Revert turn" })).toBeVisible();
  await shot(page, "after-undo-revert");
});
