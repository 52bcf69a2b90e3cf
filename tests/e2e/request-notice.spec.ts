/**
 * The chat's notice of what a request dropped or replaced (issue 13), end to end in Chromium with the mock
 * provider: a prompt with an image answered by Claude (thinking with a signature), then the selector switches to a
 * model without image input (`openai/gpt-text-only`, tests/e2e/server.ts) and the next prompt's answer has the
 * notice lines above it, exactly as `summarizeTransformReport` words them; a reload while that answer streams
 * shows them again (replayed from the run's event log); after the run has ended a reload does not (not stored in
 * the session, docs/runs.md). Also: the "System prompt" block shows the prompt text and the tools it declares.
 */
import type { Page } from "@playwright/test";
import { sessionFile } from "../helpers/session-files";
import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

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
  mock,
  openProject,
  shot,
}) => {
  await mock.script(
    {
      thinking: { text: ["A small ", "red square."], signature: "sig-anthropic-notice-1" },
      text: "A red square.",
    },
    { text: ["Only text", " reaches me."], holdUntilReleased: "notice-gate" },
  );
  await openProject(page, uniqueName("notice"), { "README.md": "# Notice\n" });

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
  await shot(page.getByRole("log", { name: "Conversation" }), "system-prompt-block");
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
  await shot(page.getByRole("log", { name: "Conversation" }), "request-notice");

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

const READ_TOOL = {
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const at = (s: number) => `2026-01-01T09:00:${String(s).padStart(2, "0")}.000Z`;
/** A pi session whose first system message only declares a tool (pi's createInitialSystemMessage with no prompt). */
const DECLARATIONS_ONLY = sessionFile(
  {
    type: "model_change",
    id: "f0000001",
    parentId: null,
    timestamp: at(1),
    provider: "anthropic",
    modelId: "claude-sonnet-4-5",
  },
  {
    type: "message",
    id: "f0000002",
    parentId: "f0000001",
    timestamp: at(2),
    message: { role: "system", content: "", toolsAdded: [READ_TOOL], timestamp: 1767258002000 },
  },
  {
    type: "message",
    id: "f0000003",
    parentId: "f0000002",
    timestamp: at(3),
    message: { role: "user", content: "Hi", timestamp: 1767258003000 },
  },
  {
    type: "message",
    id: "f0000004",
    parentId: "f0000003",
    timestamp: at(4),
    message: {
      role: "assistant",
      content: [{ type: "text", text: "Hello." }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp: 1767258004000,
    },
  },
);

// The branch's declared tools stay the active set (only `read`), so the patch redefines `read` with Strata's own.
test("a first system message without text says so and lists its tools; the next prompt's patch shows what it set", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: "Hello again." });
  await openProject(page, uniqueName("sysblock"), { "README.md": "# System block\n" });
  await page.getByLabel("Import session file").setInputFiles({
    name: "declarations-only.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(DECLARATIONS_ONLY),
  });
  await expect(page.getByText("Imported declarations-only.jsonl as")).toBeVisible();
  await expect(page.getByTestId("message-assistant").last()).toHaveText("Hello.");

  const system = page.getByTestId("message-system");
  await expect(system).toHaveCount(1);
  await system.locator("summary").click();
  await expect(system.locator("summary")).toHaveText("System prompt");
  await expect(system.locator("pre")).toHaveCount(0);
  await expect(system.locator(".system-empty")).toHaveText(
    "This message has no prompt text; it only declares the tools below.",
  );
  await expect(system.getByTestId("system-tools-added")).toHaveText("Tools: read");
  await shot(system, "system-block-declarations-only");

  await composer(page).fill("Again?");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toHaveText("Hello again.");
  await expectIdle(page);
  await expect(system).toHaveCount(2);
  const patch = system.nth(1);
  await expect(patch.locator("summary")).toHaveText(
    "System prompt updated: section preamble, section tools, section rules, section docs, section cwd, ~ tool read",
  );
  await patch.locator("summary").click();
  expect(await patch.locator("pre").textContent()).toMatch(
    new RegExp(
      `^Updated system prompt section "preamble":\n\n${PREAMBLE.replace(/[.()]/g, "\\$&")}\n\nUpdated system prompt section "tools":`,
    ),
  );
  await expect(patch.getByTestId("system-tools-added")).toHaveText("Tools added: read");
  await expect(patch.getByTestId("system-tools-removed")).toHaveText("Tools removed: read");
  await shot(page.getByRole("log", { name: "Conversation" }), "system-block-patch");
});
