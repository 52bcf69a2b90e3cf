import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

test("a second tab on the session shows a run started in the first tab as it streams, without a reload", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: ["Thinking it", " through. Done."], holdUntilReleased: "live" });
  await openProject(page, uniqueName("live"), { "README.md": "# live\n" });
  const other = await page.context().newPage();
  await other.goto(page.url());
  await expect(composer(other)).toBeEnabled();

  await composer(page).fill("Explain the project");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  // The second tab sees the prompt and the run's stream while it is held mid-answer.
  await expect(other.getByTestId("message-user")).toHaveText(["Explain the project"]);
  await expect(other.getByTestId("message-assistant").last()).toContainText("Thinking it");
  await shot(other, "second-tab-live");

  await mock.release("live");
  await expectIdle(page);
  await expect(other.getByTestId("message-assistant").last()).toHaveText("Thinking it through. Done.");
  await expectIdle(other);
  // Who asked, over the user message, in both tabs once the run is stored.
  await expect(other.getByTestId("user-author")).toHaveText(["Test User"]);
  await expect(page.getByTestId("user-author")).toHaveText(["Test User"]);
  await shot(page, "author");
  await other.close();
});
