/**
 * A typed prompt is never lost, end to end in Chromium: while a branch summary holds the session (the mock keeps
 * the summary request open), Send gets the server's 409 `session_busy`; the text goes back into the composer, no
 * user message stays in the conversation, and the text is still there after a reload (the per-session draft).
 */

import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

test("a refused prompt returns to the composer and survives a reload", async ({
  page,
  mock,
  openProject,
}) => {
  await mock.script(
    { text: "First answer." },
    { text: "Second answer." },
    { text: ["Summary ", "of the branch."], holdUntilReleased: "summary" },
  );
  await openProject(page, uniqueName("kept"), { "README.md": "# Demo\n" });
  for (const q of ["First question.", "Second question."]) {
    await composer(page).fill(q);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expectIdle(page);
  }
  await expect(page.getByTestId("message-assistant").last()).toContainText("Second answer.");

  const sessionId = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith("strata.session."));
    return key ? window.localStorage.getItem(key) : null;
  });
  const tree = (await (await page.request.get(`/api/sessions/${sessionId}/tree`)).json()) as {
    nodes: { id: string; role?: string; preview: string }[];
  };
  const first = tree.nodes.find((n) => n.role === "assistant" && n.preview === "First answer.");
  expect(first).toBeDefined();
  // A summarized branch move, held by the mock: the session is busy meanwhile.
  const branching = page.request.post(`/api/sessions/${sessionId}/branch`, {
    data: { entryId: first?.id, summarize: true },
  });
  await expect.poll(async () => (await mock.requests()).length).toBe(3);

  await composer(page).fill("Keep this text.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "session_busy" })).toBeVisible();
  await expect(composer(page)).toHaveValue("Keep this text.");
  await expect(page.getByTestId("message-user")).toHaveCount(2);
  expect(await page.evaluate((id) => window.localStorage.getItem(`strata.draft.${id}`), sessionId)).toBe(
    "Keep this text.",
  );

  await page.reload();
  await expect(composer(page)).toHaveValue("Keep this text.");

  await mock.release("summary");
  expect((await branching).status()).toBe(200);
  // Once accepted, the stored draft is gone.
  await page.reload();
  await expect(composer(page)).toHaveValue("Keep this text.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-user").last()).toContainText("Keep this text.");
  await expectIdle(page);
  await expect(composer(page)).toHaveValue("");
  expect(
    await page.evaluate((id) => window.localStorage.getItem(`strata.draft.${id}`), sessionId),
  ).toBeNull();
});
