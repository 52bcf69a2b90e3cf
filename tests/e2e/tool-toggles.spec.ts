/**
 * The IDE's tool toggles end to end in Chromium: after a first answer, turning bash off in the Tools panel records
 * pi's system patch (the chat shows "Tools removed: bash"), and the next request to the mock provider declares read,
 * edit and write only; a screenshot of the open panel is saved for review.
 */

import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

test("turning a tool off in the Tools panel changes what the next request declares", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: "First answer." }, { text: "Second answer." });
  await openProject(page, uniqueName("tools"), { "README.md": "# Demo\n" });

  await composer(page).fill("Hello.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("First answer.");
  await expectIdle(page);

  const panel = page.getByRole("region", { name: "Tools" });
  await panel.getByRole("button", { name: "Tools" }).click();
  await expect(panel).toContainText("4 of 7 on");
  const bash = panel.getByRole("checkbox", { name: /^bash / });
  await expect(bash).toBeChecked();
  await bash.uncheck();
  await expect(panel).toContainText("3 of 7 on");
  await expect(page.getByTestId("system-tools-removed")).toHaveText("Tools removed: bash");
  // Reads that started before the change (the chat's refreshes) do not bring the old state back.
  await expect(panel).toContainText("3 of 7 on");
  await expect(bash).not.toBeChecked();
  await shot(page, "strata-tool-toggles");

  await composer(page).fill("Again.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Second answer.");
  const requests = await mock.requests();
  const tools = requests.map((r) =>
    ((r.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name),
  );
  expect(tools).toEqual([
    ["read", "bash", "edit", "write"],
    ["read", "edit", "write"],
  ]);
});
