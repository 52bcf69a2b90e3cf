/**
 * The model picker follows the session, end to end in Chromium: a session whose model is GPT-5 shows GPT-5
 * after a reload even when this browser last chose Claude; switching to Claude stores pi's `model_change` at
 * once (seen in the export before any prompt), survives a reload, and the next prompt reaches the mock as Claude.
 */

import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";

test("the picker shows the session's model after a reload and a switch is stored as model_change", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await mock.script({ text: "GPT answers." }, { text: "Claude answers." });
  await openProject(page, uniqueName("picker"), { "README.md": "# Demo\n" });
  const model = page.getByLabel("Model", { exact: true });
  await expect(model).toHaveValue("anthropic/claude-sonnet-4-5");

  await model.selectOption("openai/gpt-5");
  await composer(page).fill("Hello GPT.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("GPT answers.");
  await expectIdle(page);

  // This browser's last choice says Claude; the session's own model (GPT-5) must win after a reload.
  await page.evaluate(() => window.localStorage.setItem("strata.model", "anthropic/claude-sonnet-4-5"));
  await page.reload();
  await expect(page.getByTestId("message-assistant").last()).toContainText("GPT answers.");
  await expect(model).toHaveValue("openai/gpt-5");
  await shot(page.locator(".session-bar"), "model-picker");

  const sessionId = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith("strata.session."));
    return key ? window.localStorage.getItem(key) : null;
  });
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  const entries = async () =>
    (await (await page.request.get(`/api/sessions/${sessionId}/export`)).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  // The switch is stored at once, as pi's setModel does: the last entry, before any prompt.
  await model.selectOption("anthropic/claude-sonnet-4-5");
  await expect
    .poll(async () => {
      const last = (await entries()).at(-1) ?? {};
      return { type: last.type, provider: last.provider, modelId: last.modelId };
    })
    .toEqual({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
  const models = (await entries())
    .filter((e) => e.type === "model_change")
    .map((e) => `${e.provider}/${e.modelId}`);
  expect(models).toEqual(["openai/gpt-5", "anthropic/claude-sonnet-4-5"]);

  await page.evaluate(() => window.localStorage.setItem("strata.model", "openai/gpt-5"));
  await page.reload();
  await expect(page.getByTestId("message-assistant").last()).toContainText("GPT answers.");
  await expect(model).toHaveValue("anthropic/claude-sonnet-4-5");

  await composer(page).fill("Hello Claude.");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText("Claude answers.");
  await expectIdle(page);
  const requests = await mock.requests();
  expect(requests.map((r) => [r.path, (r.body as { model: string }).model])).toEqual([
    ["/v1/responses", "gpt-5"],
    ["/v1/messages", "claude-sonnet-4-5"],
  ]);
  // No second model_change: the prompt ran on the model the session already had.
  const after = (await entries())
    .filter((e) => e.type === "model_change")
    .map((e) => `${e.provider}/${e.modelId}`);
  expect(after).toEqual(["openai/gpt-5", "anthropic/claude-sonnet-4-5"]);
});
