/**
 * The context inspector, end to end in Chromium (issue 13, "What it must show" 1): a pi
 * session whose history came from Anthropic (thinking with signatures, a redacted thinking block, a tool call, and
 * images in a user message and a tool result) is imported and switched to a non-vision OpenAI model
 * (`openai/gpt-text-only`, tests/e2e/server.ts). The inspector in the chat pane follows that model, previews the
 * prompt (its payload holds it), lists each change `transformMessages` made for that model and the chat's notices
 * for the request, and its filter narrows them. The full page shows the six layers as columns; another project's
 * session is a 404. (That the previewed payload is, byte for byte, the body the provider receives when the prompt is
 * sent: tests/integration/http/preview-payload-sent.test.ts, against the routes.)
 */
import type { Page } from "@playwright/test";
import { ANTHROPIC_IMAGE_HISTORY } from "../helpers/session-files";
import { expect, test } from "./fixtures";
import { uniqueName } from "./helpers";

const PROMPT = "Describe the screenshots again, briefly.";

async function openSessionId(page: Page): Promise<string> {
  const id = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith("strata.session."));
    return key ? window.localStorage.getItem(key) : null;
  });
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id ?? "";
}

test("the inspector lists each transform change for a non-vision OpenAI model; the full page shows six layers", async ({
  page,
  openProject,
  shot,
}) => {
  await page.setViewportSize({ width: 1500, height: 1000 });
  const name = uniqueName("inspect");
  await openProject(page, name, { "README.md": "# Demo\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() ?? "";
  await page.getByLabel("Import session file").setInputFiles({
    name: "anthropic-history.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(ANTHROPIC_IMAGE_HISTORY),
  });
  await expect(page.getByText("Imported anthropic-history.jsonl as")).toBeVisible();
  await expect(page.getByTestId("message-assistant").last()).toContainText(
    "Both screenshots show the login form.",
  );
  const model = page.getByLabel("Model", { exact: true });
  await expect(model).toHaveValue("anthropic/claude-sonnet-4-5");
  // The switch is stored in the session (its model_change), which the full page below reads.
  const stored = page.waitForResponse(
    (r) => /\/api\/sessions\/[^/]+\/model$/.test(r.url()) && r.request().method() === "PUT",
  );
  await model.selectOption("openai/gpt-text-only");
  const sessionId = await openSessionId(page);
  const put = await stored;
  expect([put.url().endsWith(`/api/sessions/${sessionId}/model`), put.status()]).toEqual([true, 200]);

  // The inspector in the chat pane follows the chat's model; preview the prompt about to be sent.
  const inspector = page.getByRole("region", { name: "Inspector", exact: true });
  await inspector.getByRole("button", { name: "Inspector" }).click();
  await expect(inspector.getByLabel("Inspector model")).toHaveValue("openai/gpt-text-only");
  await inspector.getByLabel("Prompt to preview").fill(PROMPT);
  await inspector.getByRole("button", { name: "Preview", exact: true }).click();
  const payloadJson = inspector.getByTestId("payload-json");
  await expect(payloadJson).toContainText(PROMPT);
  await expect(inspector.getByText("Next request of the current branch on")).toContainText(
    "openai/gpt-text-only (no image input)",
  );
  const changes = inspector.getByTestId("transform-change");
  expect(await changes.allTextContents()).toEqual(EXPECTED_CHANGES);
  // The notices the chat shows above the answer to this request (summarizeTransformReport).
  expect(
    await inspector
      .getByRole("list", { name: "Chat notices for this request" })
      .getByRole("listitem")
      .allTextContents(),
  ).toEqual([
    "3 images not sent: this model has no image input",
    "thinking from another model sent as text",
    "1 redacted thinking block from another model dropped",
    "thinking signatures from another model dropped",
  ]);
  await shot(inspector, "inspector-panel-transform");

  // The filter narrows every layer: only the signature changes stay in layer 5.
  await inspector.getByLabel("Filter all layers").fill("signature");
  expect(await changes.allTextContents()).toEqual(EXPECTED_CHANGES.filter((c) => /signature/i.test(c)));
  await inspector.getByLabel("Filter all layers").fill("");
  await inspector.getByRole("tab", { name: "6 Provider payload" }).click();
  await expect(payloadJson).toBeVisible();
  await shot(inspector, "inspector-panel-payload");

  // The full page: the six layers side by side, for the session's (now OpenAI) next request.
  await page.goto(`/projects/${projectId}/sessions/${sessionId}/inspect`);
  await expect(page.getByLabel("Inspector model")).toHaveValue("openai/gpt-text-only");
  await page.getByLabel("Prompt to preview").fill("And the README?");
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(page.getByTestId("payload-json")).toContainText("And the README?");
  const columns = page.getByRole("tabpanel");
  await expect(columns).toHaveCount(6);
  for (const title of [
    "Layer 1: Session entries",
    "Layer 2: Agent messages",
    "Layer 3: Context hooks",
    "Layer 4: LLM messages",
    "Layer 5: Transform for openai/gpt-text-only",
    "Layer 6: Provider payload",
  ])
    await expect(page.getByRole("tabpanel", { name: title })).toBeVisible();
  await expect(page.getByRole("tab", { name: "1 Session entries" })).toBeHidden();
  expect(await page.getByTestId("transform-change").allTextContents()).toEqual(EXPECTED_CHANGES);
  await shot(page, "inspector-page");

  // A session of another project is not found (the page authorises session and project).
  const other = await page.goto(
    `/projects/${projectId.replace(/.$/, (c) => (c === "0" ? "1" : "0"))}/sessions/${sessionId}/inspect`,
  );
  expect(other?.status()).toBe(404);
});

/**
 * What transformMessages reports for ANTHROPIC_IMAGE_HISTORY on openai/gpt-text-only, one line per change: the
 * user's two images become one placeholder, each signed thinking block loses its signature and is sent as text, the
 * tool result's image becomes a placeholder, the redacted block is dropped. `toolu_01A` is a valid Responses call id:
 * not rewritten. Request message i is LLM message i (the imported history has no system message).
 */
const EXPECTED_CHANGES = [
  "Images replaced (2) · request message #0, block #1 — this model has no image input (LLM #0)",
  "Signature dropped · request message #1, block #0 — from another model (anthropic/claude-sonnet-4-5) (LLM #1)",
  "Thinking sent as text · request message #1, block #0 — from another model (anthropic/claude-sonnet-4-5) (LLM #1)",
  "Images replaced · request message #2, block #1 — this model has no image input (LLM #2)",
  "Thinking dropped · request message #3, block #0 — redacted, from another model (anthropic/claude-sonnet-4-5) (LLM #3)",
  "Signature dropped · request message #3, block #1 — from another model (anthropic/claude-sonnet-4-5) (LLM #3)",
  "Thinking sent as text · request message #3, block #1 — from another model (anthropic/claude-sonnet-4-5) (LLM #3)",
];
