/**
 * Talking to a running agent, end to end in Chromium against the mock provider: a steering message
 * (Enter while the agent works) reaches the model right after the current tool result; a follow-up
 * (Alt+Enter) only once the agent would have stopped; an Abort during a tool call hands the queued texts
 * back to the composer and nothing more reaches the model; a second tab that sends a prompt meanwhile gets
 * the 409 shown and keeps its draft.
 */

import { expect, test } from "./fixtures";
import {
  anthropicRequests,
  blocksOf,
  composer,
  expectIdle,
  messagesOf,
  queuedItems,
  transcript,
  uniqueName,
} from "./helpers";

const README = "# Demo\n\nHello from the demo project.\n";

test("steering a running agent: delivered right after the tool result", async ({
  page,
  mock,
  openProject,
}) => {
  const steer = "Use tabs, not spaces.";
  await mock.script(
    {
      text: "Reading the README.",
      toolCalls: [{ id: "toolu_steer_1", name: "read", input: { path: "README.md" } }],
      holdUntilReleased: "steer-gate",
    },
    { text: "Switched to tabs as asked." },
  );
  await openProject(page, uniqueName("steer"), { "README.md": README });

  await composer(page).fill("Summarise the README.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  // The model's stream is held after its first delta: the run is live.
  await expect(page.getByTestId("message-assistant").last()).toContainText("Reading the README.");
  await expect(composer(page)).toBeEnabled();
  await expect(page.getByRole("button", { name: "Steer", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Follow up", exact: true })).toBeVisible();
  await expect(page.getByText("Enter to steer · Alt+Enter to follow up", { exact: true })).toBeVisible();

  await composer(page).fill(steer);
  await composer(page).press("Enter");
  await expect(queuedItems(page)).toHaveCount(1);
  await expect(queuedItems(page).first()).toHaveAccessibleName(`Steer: ${steer}`);
  await expect(composer(page)).toHaveValue("");

  await mock.release("steer-gate");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Switched to tabs as asked.");
  await expectIdle(page);
  await expect(queuedItems(page)).toHaveCount(0);
  expect(await transcript(page)).toEqual([
    "user: Summarise the README.",
    expect.stringMatching(/^assistant: Reading the README\.read/),
    `user: ${steer}`,
    "assistant: Switched to tabs as asked.",
  ]);

  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(2);
  for (const r of requests) expect(r.validationError ?? null).toBeNull();
  expect(JSON.stringify(requests[0].body)).not.toContain(steer);
  const second = messagesOf(requests[1]);
  const last = second.at(-1)!;
  expect(last.role).toBe("user");
  // The tool result, then the steering message as the user's text, and nothing after it.
  const blocks = blocksOf(last);
  expect(blocks.map((b) => b.type)).toEqual(["tool_result", "text"]);
  expect(blocks[0].tool_use_id).toBe("toolu_steer_1");
  expect(blocks[1].text).toBe(steer);
  const assistant = second.at(-2)!;
  expect(blocksOf(assistant).find((b) => b.type === "tool_use")?.id).toBe("toolu_steer_1");
});

test("a follow-up waits until the agent would stop", async ({ page, mock, openProject }) => {
  const followUp = "Also list the files.";
  await mock.script(
    {
      text: "Reading the README.",
      toolCalls: [{ id: "toolu_follow_1", name: "read", input: { path: "README.md" } }],
      holdUntilReleased: "follow-gate",
    },
    { text: "The README says hello." },
    { text: "There is one file: README.md." },
  );
  await openProject(page, uniqueName("follow"), { "README.md": README });

  await composer(page).fill("Summarise the README.");
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Reading the README.");

  await composer(page).fill(followUp);
  await composer(page).press("Alt+Enter");
  await expect(queuedItems(page)).toHaveCount(1);
  await expect(queuedItems(page).first()).toHaveAccessibleName(`Follow-up: ${followUp}`);

  await mock.release("follow-gate");
  await expect(page.getByTestId("message-assistant").last()).toContainText("There is one file: README.md.");
  await expectIdle(page);
  await expect(queuedItems(page)).toHaveCount(0);
  expect(await transcript(page)).toEqual([
    "user: Summarise the README.",
    expect.stringMatching(/^assistant: Reading the README\.read/),
    "assistant: The README says hello.",
    `user: ${followUp}`,
    "assistant: There is one file: README.md.",
  ]);

  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(3);
  for (const r of requests) expect(r.validationError ?? null).toBeNull();
  // Not delivered with the tool result (that would be steering) ...
  const second = messagesOf(requests[1]);
  expect(blocksOf(second.at(-1)!).map((b) => b.type)).toEqual(["tool_result"]);
  expect(JSON.stringify(requests[1].body)).not.toContain(followUp);
  // ... but after the final assistant message.
  const third = messagesOf(requests[2]);
  expect(third.at(-2)?.role).toBe("assistant");
  expect(blocksOf(third.at(-2)!).map((b) => b.text)).toEqual(["The README says hello."]);
  expect(third.at(-1)?.role).toBe("user");
  expect(blocksOf(third.at(-1)!)).toEqual([expect.objectContaining({ type: "text", text: followUp })]);
});

test("abort during a tool call: the queued texts come back to the composer", async ({
  page,
  mock,
  openProject,
}) => {
  await mock.script({
    text: "Sleeping on it.",
    toolCalls: [{ id: "toolu_sleep_1", name: "bash", input: { command: "sleep 30" } }],
  });
  await openProject(page, uniqueName("abort"), { "README.md": README });

  await composer(page).fill("Take your time.");
  await composer(page).press("Enter");
  const tool = page.getByTestId("tool-call");
  await expect(tool).toHaveAttribute("data-status", "running");

  await composer(page).fill("Stop sleeping.");
  await composer(page).press("Enter");
  await composer(page).fill("Then say hi.");
  await page.getByRole("button", { name: "Follow up", exact: true }).click();
  await expect(queuedItems(page)).toHaveCount(2);
  await expect(queuedItems(page).nth(0)).toHaveAccessibleName("Steer: Stop sleeping.");
  await expect(queuedItems(page).nth(1)).toHaveAccessibleName("Follow-up: Then say hi.");
  await composer(page).fill("my draft");

  await page.getByRole("button", { name: "Abort", exact: true }).click();
  await expect(composer(page)).toHaveValue("Stop sleeping.\n\nThen say hi.\n\nmy draft");
  await expect(queuedItems(page)).toHaveCount(0);
  await expectIdle(page);
  await expect(tool).toHaveAttribute("data-status", "error");
  expect((await transcript(page)).filter((line) => line.startsWith("user:"))).toEqual([
    "user: Take your time.",
  ]);

  // The run is over and nothing else reached the model.
  const requests = await mock.requests();
  expect(requests).toHaveLength(1);
  expect(JSON.stringify(requests[0].body)).not.toContain("Stop sleeping.");

  // The restored text is a normal prompt again.
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeEnabled();
});

test("a second tab follows the run another tab started and steers it", async ({
  page,
  context,
  mock,
  openProject,
}) => {
  await mock.script(
    { text: ["Working on it.", " Done."], holdUntilReleased: "tab-gate" },
    { text: "Steered from the other tab." },
  );
  await openProject(page, uniqueName("tabs"), { "README.md": README });
  await composer(page).fill("First prompt.");
  await composer(page).press("Enter");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Working on it.");

  // The same session in another tab: it sees the live run (GET answers it) and follows it.
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId("message-user")).toHaveText(["First prompt."]);
  const notice = other.getByText("The agent is working on this session in another tab.", { exact: false });
  await expect(notice).toBeVisible();

  // Enter steers the other tab's run: queued, listed, delivered by that run.
  await composer(other).fill("Second prompt.");
  await composer(other).press("Enter");
  await expect(other.getByRole("listitem", { name: "Steer: Second prompt." })).toBeVisible();
  await expect(composer(other)).toHaveValue("");
  await mock.release("tab-gate");
  await expect(page.getByTestId("message-assistant").last()).toContainText("Steered from the other tab.");
  await expectIdle(page);
  // The second tab shows what the run stored once it has ended.
  await expect(other.getByTestId("message-user")).toHaveText(["First prompt.", "Second prompt."]);
  await expect(notice).toHaveCount(0);
  const requests = await mock.requests();
  expect(requests).toHaveLength(2);
  expect(JSON.stringify(requests[1].body)).toContain("Second prompt.");
});
