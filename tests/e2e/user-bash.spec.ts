/**
 * The user's own shell commands in the chat, end to end in Chromium: `!echo hi` runs in the project's VFS
 * shell and shows its output; `!!cat secret.txt` is shown but kept out of the model's context; both survive
 * a reload (stored as `bashExecution` messages), and the next prompt carries only the `!` command, in pi's
 * `Ran \`…\`` form.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { anthropicRequests, blocksOf, composer, expectIdle, messagesOf, uniqueName } from "./helpers";

async function expectShellBlocks(page: Page) {
  const blocks = page.getByTestId("message-bashExecution");
  await expect(blocks).toHaveCount(2);
  const [echo, secret] = [blocks.nth(0), blocks.nth(1)];
  await expect(echo.locator(".shell-command")).toHaveText("$ echo hi");
  await expect(echo.locator("pre")).toHaveText("hi");
  await expect(echo.locator(".shell-status")).toHaveText("exit 0");
  await expect(echo.getByText("excluded from context")).toHaveCount(0);
  await expect(secret.locator(".shell-command")).toHaveText("$ cat secret.txt");
  await expect(secret.locator("pre")).toHaveText("top secret");
  await expect(secret.locator(".shell-status")).toHaveText("exit 0");
  await expect(secret.getByText("excluded from context")).toBeVisible();
}

test("!command and !!command: shown, stored, and only ! reaches the model", async ({
  page,
  mock,
  openProject,
}) => {
  await mock.script({ text: "You said hi." });
  await openProject(page, uniqueName("bash"), { "README.md": "# Demo\n", "secret.txt": "top secret\n" });

  await expect(composer(page)).toHaveAttribute("placeholder", /!command runs it in the project shell/);
  await composer(page).fill("!echo hi");
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeVisible();
  await expect(page.getByText("Enter to run the command")).toBeVisible();
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-bashExecution")).toHaveCount(1);
  await expect(page.getByTestId("message-bashExecution").locator("pre")).toHaveText("hi");
  await expect(composer(page)).toHaveValue("");

  await composer(page).fill("!!cat secret.txt");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expectShellBlocks(page);
  // A shell command is not a prompt: nothing went to the model, no user message was shown.
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  expect(await mock.requests()).toEqual([]);

  await page.reload();
  await expectShellBlocks(page);

  await composer(page).fill("What did I run?");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("You said hi.");
  await expectIdle(page);

  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(1);
  expect(requests[0].validationError ?? null).toBeNull();
  const texts = messagesOf(requests[0])
    .filter((m) => m.role === "user")
    .flatMap(blocksOf)
    .map((b) => b.text ?? "");
  expect(texts).toContain("Ran `echo hi`\n```\nhi\n\n```");
  expect(texts.at(-1)).toBe("What did I run?");
  const raw = JSON.stringify(requests[0].body);
  expect(raw).not.toContain("cat secret.txt");
  expect(raw).not.toContain("top secret");
});

test("!command while the agent runs: runs at once, stored after the run", async ({
  page,
  mock,
  openProject,
}) => {
  await mock.script({ text: ["Thinking about it.", " Finished."], holdUntilReleased: "bash-gate" });
  await openProject(page, uniqueName("bash-live"), { "README.md": "# Demo\n" });

  await composer(page).fill("Take a look.");
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Thinking about it.");
  await composer(page).fill("!echo meanwhile");
  await expect(page.getByRole("button", { name: "Run", exact: true })).toBeVisible();
  await composer(page).press("Enter");
  const block = page.getByTestId("message-bashExecution");
  await expect(block.locator("pre")).toHaveText("meanwhile");
  await expect(block.locator(".shell-status")).toHaveText("exit 0");
  // The run is still held: the command did not wait for it, and nothing was queued.
  await expect(page.getByRole("button", { name: "Abort", exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Queued messages" })).toHaveCount(0);

  await mock.release("bash-gate");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Thinking about it. Finished.");
  await expectIdle(page);
  expect(await mock.requests()).toHaveLength(1);

  // Stored after the run's messages.
  await page.reload();
  const articles = page.getByRole("log", { name: "Conversation" }).locator("article");
  await expect(articles.last()).toHaveAttribute("data-testid", "message-bashExecution");
  await expect(articles.last().locator("pre")).toHaveText("meanwhile");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Thinking about it. Finished.");
});
