/**
 * No model configured, end to end in Chromium: an account whose workspace has no provider key, on the e2e server,
 * which has none of its own either (tests/e2e/server.ts; `modelKeys: false`, tests/e2e/fixtures.ts). The home page
 * and the composer say at once that no model is configured and how to configure one, Send stays disabled for prompts
 * (the typed text stays), `!ls` still runs, and the typed text survives a reload. What the API answers with no model
 * (the config, a refused prompt) is tests/integration/http/no-model-routes.test.ts.
 */

import { expect, test } from "./fixtures";
import { composer, uniqueName } from "./helpers";

test.use({ modelKeys: false });

const NOTE_TITLE = "No model is configured: prompts cannot be sent.";
const NOTE_TEXT =
  "Set ANTHROPIC_API_KEY, OPENAI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, MISTRAL_API_KEY or OPENAI_COMPATIBLE_BASE_URL " +
  "in .env.local (or the server's environment), then restart npm start. Shell !commands still run.";

test("no model: the composer says how to configure one, Send is disabled, !ls runs, the draft survives", async ({
  page,
  openProject,
  shot,
}) => {
  await page.goto("/");
  const config = (await (await page.request.get("/api/config")).json()) as { configured: boolean };
  expect(config.configured).toBe(false);

  await expect(page.getByRole("status").filter({ hasText: "No model provider is configured" })).toContainText(
    "Set one of ANTHROPIC_API_KEY, OPENAI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, MISTRAL_API_KEY or OPENAI_COMPATIBLE_BASE_URL in .env.local (or the server's environment), then restart npm start.",
  );

  await openProject(page, uniqueName("nomodel"), { "README.md": "# Demo\n" });
  await expect(page.locator(".chat-empty")).toHaveText(
    "No model is configured: !commands run in the project shell; see the note below the chat to configure one.",
  );
  const form = page.getByRole("form", { name: "Composer" });
  const note = form.getByRole("status").filter({ hasText: NOTE_TITLE });
  await expect(note.locator(".notice-title")).toHaveText(NOTE_TITLE);
  await expect(note.locator(".no-model-text")).toHaveText(NOTE_TEXT);
  // The full help folds out; it is closed at first (the note stays compact).
  await expect(note.locator("pre")).toBeHidden();
  await note.getByText("All settings").click();
  await expect(note.locator("pre")).toContainText("MISTRAL_API_KEY=...");
  await note.getByText("All settings").click();
  // No second copy of the help anywhere else in the chat.
  await expect(page.getByText("No model provider is configured")).toHaveCount(0);
  await expect(page.getByLabel("Model", { exact: true })).toBeDisabled();
  await expect(page.getByLabel("Model", { exact: true })).toHaveText("No models configured");

  await expect(composer(page)).toHaveAttribute(
    "placeholder",
    "No model configured: !command runs in the project shell",
  );
  await composer(page).fill("Explain the README.");
  const send = page.getByRole("button", { name: "Send", exact: true });
  await expect(send).toBeDisabled();
  await expect(form.locator(".hint")).toHaveText("Prompts need a model · !command runs in the project shell");
  await composer(page).press("Enter");
  await expect(composer(page)).toHaveValue("Explain the README.");
  await expect(page.getByTestId("message-user")).toHaveCount(0);
  await shot(form, "no-model-composer");

  await composer(page).fill("!ls");
  const run = page.getByRole("button", { name: "Run", exact: true });
  await expect(run).toBeEnabled();
  await run.click();
  const block = page.getByTestId("message-bashExecution");
  await expect(block.locator(".shell-command")).toHaveText("$ ls");
  await expect(block.locator("pre")).toHaveText("README.md");
  await expect(composer(page)).toHaveValue("");

  await composer(page).fill("Explain the README, please.");
  await page.reload();
  await expect(composer(page)).toHaveValue("Explain the README, please.");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
});
