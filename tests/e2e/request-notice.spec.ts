/**
 * The chat's notice of what a request dropped or replaced (issue 13), end to end in Chromium with the mock
 * provider: a prompt with an image answered by Claude (thinking with a signature), then the selector switches to a
 * model without image input (`openai/gpt-text-only`, tests/e2e/server.ts) and the next prompt's answer has the
 * notice lines above it, exactly as `summarizeTransformReport` words them; a reload while that answer streams
 * shows them again (replayed from the run's event log); after the run has ended a reload does not (not stored in
 * the session, docs/runs.md). Also: the "System prompt" block shows the prompt text and the tools it declares.
 */
import { expect, type Page, test } from "@playwright/test";
import { mockProviderClient } from "../mock-provider";
import { composer, expectIdle, openZipProject, uniqueName } from "./helpers";
import { E2E_MOCK_URL } from "./ports";

const mock = mockProviderClient(E2E_MOCK_URL);
const SHOTS = process.env.STRATA_E2E_SHOTS;
/** An 8x8 red PNG. */
const RED =
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGO4o6GBFTEMLQkAe3tLAfuiUfAAAAAASUVORK5CYII=";
const NOTICES = [
  "1 image not sent: this model has no image input",
  "thinking from another model sent as text",
  "thinking signatures from another model dropped",
];
const PREAMBLE =
  "You are an expert coding assistant operating inside Strata, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.";

const notes = (page: Page) => page.getByRole("log", { name: "Conversation" }).getByTestId("request-notice");
/** The test ids of the conversation's notice blocks and messages, in order. */
const order = (page: Page) =>
  page
    .getByRole("log", { name: "Conversation" })
    .locator("[data-testid]")
    .evaluateAll((nodes) =>
      nodes
        .map((n) => n.getAttribute("data-testid") ?? "")
        .filter((id) => id === "request-notice" || id.startsWith("message-")),
    );

test("a request to a model without image input: the notice above its answer, live and after a reload mid-run", async ({
  page,
}) => {
  await mock.reset();
  await mock.script(
    {
      thinking: { text: ["A small ", "red square."], signature: "sig-anthropic-notice-1" },
      text: "A red square.",
    },
    { text: ["Only text", " reaches me."], holdUntilReleased: "notice-gate" },
  );
  await openZipProject(page, uniqueName("notice"), { "README.md": "# Notice\n" });

  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach image", exact: true }).click();
  await (await chooser).setFiles({
    name: "red.png",
    mimeType: "image/png",
    buffer: Buffer.from(RED, "base64"),
  });
  await composer(page).fill("What is this?");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("A red square.");
  await expectIdle(page);
  // Claude has image input and its own thinking: nothing was dropped.
  await expect(notes(page)).toHaveCount(0);

  // The System prompt block: the session's prompt (sections) and the tools it declares.
  const system = page.getByTestId("message-system");
  await expect(system).toHaveCount(1);
  await system.locator("summary").click();
  await expect(system.locator("summary")).toHaveText("System prompt");
  expect(await system.locator("pre").textContent()).toMatch(
    new RegExp(`^${PREAMBLE.replace(/[.()]/g, "\\$&")}\n\n<tools>\n- read: `),
  );
  await expect(system.getByTestId("system-tools-added")).toHaveText("Tools: read, bash, edit, write");
  if (SHOTS)
    await page
      .getByRole("log", { name: "Conversation" })
      .screenshot({ path: `${SHOTS}/system-prompt-block.png` });
  await system.locator("summary").click();

  await page.getByLabel("Model", { exact: true }).selectOption("openai/gpt-text-only");
  await composer(page).fill("And now?");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  // Held after its first delta: the notice is above the answer that streams.
  await expect(page.getByTestId("message-assistant").last()).toContainText("Only text");
  await expect(notes(page)).toHaveCount(1);
  await expect(notes(page).getByRole("note")).toHaveText(NOTICES);
  expect(await order(page)).toEqual([
    "message-system",
    "message-user",
    "message-assistant",
    "message-user",
    "request-notice",
    "message-assistant",
  ]);

  // A reload mid-run replays the run's log: the notice is back, above the same answer.
  await page.reload();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Only text");
  await expect(notes(page).getByRole("note")).toHaveText(NOTICES);
  await mock.release("notice-gate");
  await expect(page.getByTestId("message-assistant").last()).toHaveText("Only text reaches me.");
  await expectIdle(page);
  await expect(notes(page).getByRole("note")).toHaveText(NOTICES);
  expect((await order(page)).slice(-2)).toEqual(["request-notice", "message-assistant"]);
  if (SHOTS)
    await page.getByRole("log", { name: "Conversation" }).screenshot({ path: `${SHOTS}/request-notice.png` });

  // The request it describes: pi's placeholder in place of the image, the thinking as text, no signature.
  const requests = await mock.requests();
  expect(requests.map((r) => `${r.path} ${(r.body as { model?: string }).model}`)).toEqual([
    "/v1/messages claude-sonnet-4-5",
    "/v1/responses gpt-text-only",
  ]);
  const raw = requests[1].rawBody ?? "";
  expect(raw).not.toContain(RED);
  expect(raw).not.toContain("sig-anthropic-notice-1");
  expect(raw).toContain("(image omitted: model does not support images)");

  // Not stored in the session: after the run a reload shows the answers without it (docs/runs.md).
  await page.reload();
  await expect(page.getByTestId("message-assistant").last()).toHaveText("Only text reaches me.");
  await expect(notes(page)).toHaveCount(0);
});
