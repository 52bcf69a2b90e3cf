/**
 * A failed branch summary, end to end in Chromium: the mock provider fails the summarization request, and the
 * session tree shows, where the move was asked for, the server's message and what to do next; the session did not
 * move (nothing half done). Retry then succeeds with a summary; "Go without summary" is offered.
 */

import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

test("a failed branch summary is shown next to the entry, nothing moved, Retry works", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script(
    { text: "First answer." },
    { text: "Second answer." },
    { error: { status: 400, message: "The summarizer is refusing requests." } },
    { text: "The user asked a second question." },
  );
  await openProject(page, uniqueName("branchfail"), { "README.md": "# Demo\n" });
  for (const q of ["First question.", "Second question."]) {
    await composer(page).fill(q);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expectIdle(page);
  }
  await expect(page.getByTestId("message-assistant").last()).toContainText("Second answer.");

  const panel = page.getByRole("dialog", { name: "Session tree" });
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const sessionId = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith("strata.session."));
    return key ? window.localStorage.getItem(key) : null;
  });
  const leaf = async () =>
    ((await (await page.request.get(`/api/sessions/${sessionId}/tree`)).json()) as { leafId: string }).leafId;
  const before = await leaf();

  await panel.getByRole("option").filter({ hasText: "First answer." }).click();
  await panel.getByRole("button", { name: "Go here…" }).click();
  await panel.getByRole("radio", { name: "Summarize", exact: true }).check();
  await panel.getByRole("button", { name: "Move", exact: true }).click();
  const alert = panel.getByRole("alert");
  await expect(alert.locator(".notice-title")).toHaveText("Could not summarize the branch you are leaving");
  await expect(alert.locator(".branch-failure-message")).toHaveText(
    "Branch summarization failed: 400 The summarizer is refusing requests.",
  );
  await expect(alert.locator(".branch-failure-advice")).toHaveText(
    "Nothing changed: the session is still where it was. Retry, go there without a summary, or check the session's model and its API key.",
  );
  await expect(alert.getByRole("button", { name: "Go without summary" })).toBeEnabled();
  await shot(panel, "branch-failure");
  // Nothing half done: the leaf did not move, no branch_summary entry, the conversation is unchanged.
  expect(await leaf()).toBe(before);
  const tree = (await (await page.request.get(`/api/sessions/${sessionId}/tree`)).json()) as {
    nodes: { type: string }[];
  };
  expect(tree.nodes.filter((n) => n.type === "branch_summary")).toEqual([]);
  await expect(page.getByTestId("message-assistant").last()).toContainText("Second answer.");

  await alert.getByRole("button", { name: "Retry" }).click();
  // The move is done: the tree closes.
  await expect(panel).toHaveCount(0);
  await expect.poll(leaf).not.toBe(before);
  const after = (await (await page.request.get(`/api/sessions/${sessionId}/tree`)).json()) as {
    nodes: { type: string; preview: string }[];
  };
  expect(after.nodes.filter((n) => n.type === "branch_summary").length).toBe(1);
  await expect(page.getByTestId("message-assistant").last()).toContainText("First answer.");
  const requests = await mock.requests();
  expect(requests.map((r) => r.status)).toEqual([200, 200, 400, 200]);
});
