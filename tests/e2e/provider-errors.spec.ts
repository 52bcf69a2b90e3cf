/**
 * Provider errors in the chat, end to end in Chromium against the mock provider: a transient 529 is retried as
 * pi's auto-retry does (its "Retrying (n/max) in Ns..." notice, then the answer), a refused key says which
 * variable to set, the retry notice's Cancel stops the wait (pi's final text, no further request), and the Retry
 * button re-runs a failed turn without a second user message. Retry delays come from pi's settings file in the
 * agent dir (`/.pi/agent/settings.json`, written through the agent-dir API).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { anthropicRequests, composer, expectIdle, messagesOf, transcript, uniqueName } from "./helpers";

const README = "# Demo\n\nHello.\n";

async function retrySettings(page: Page, retry: Record<string, unknown>): Promise<void> {
  const res = await page.request.put("/api/agent/file", {
    data: { path: "settings.json", content: JSON.stringify({ retry }) },
  });
  expect(res.status()).toBe(200);
}

const retryNotice = (page: Page) => page.getByRole("status", { name: "Automatic retry" });
const lastAssistant = (page: Page) => page.getByTestId("message-assistant").last();
const send = async (page: Page, text: string) => {
  await composer(page).fill(text);
  await page.getByRole("button", { name: "Send", exact: true }).click();
};

test("a 529 is retried with pi's notice, then the answer shows", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await retrySettings(page, { baseDelayMs: 3000, maxRetries: 3 });
  await mock.script({ error: { status: 529, message: "Overloaded" } }, { text: "Recovered answer." });
  await openProject(page, uniqueName("retry"), { "README.md": README });
  await send(page, "Say hello.");

  await expect(retryNotice(page)).toBeVisible();
  await expect(retryNotice(page).locator(".notice-title")).toHaveText("Retrying (1/3) in 3s...");
  await expect(retryNotice(page).locator(".retry-error")).toHaveText("529 Overloaded");
  await expect(retryNotice(page).getByRole("button", { name: "Cancel" })).toBeVisible();
  // The failed answer is in the chat, explained, with no Retry button (the agent is retrying).
  const failed = page.locator('[data-testid="message-assistant"][data-stop-reason="error"]');
  await expect(failed.locator(".stop-title")).toHaveText("The provider is unavailable or rate-limited (529)");
  await expect(failed.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await shot(page, "retry-notice");

  await expect(lastAssistant(page)).toHaveText("Recovered answer.");
  await expect(retryNotice(page)).toHaveCount(0);
  await expectIdle(page);
  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(2);
  expect(messagesOf(requests[1])).toEqual(messagesOf(requests[0]));
  // Recovered: the failed answer is one muted line now, no red box, hint or Retry.
  const expected = [
    "user: Say hello.",
    "assistant: Provider error (529 Overloaded), retried",
    "assistant: Recovered answer.",
  ];
  expect(await transcript(page)).toEqual(expected);
  await expect(page.locator(".stop-error")).toHaveCount(0);
  await expect(page.locator(".stop-retried")).toHaveCount(2);
  await shot(page, "retried-compact");
  // The session keeps the failed answer, as pi's session file does.
  await page.reload();
  await expect(lastAssistant(page)).toHaveText("Recovered answer.");
  expect(await transcript(page)).toEqual(expected);
});

test("a 401 names the key to set; Retry re-runs the turn and the answer appears", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await retrySettings(page, { baseDelayMs: 50 });
  await mock.script({ error: { status: 401, message: "invalid x-api-key" } });
  await openProject(page, uniqueName("badkey"), { "README.md": README });
  await send(page, "Say hello.");

  const failed = lastAssistant(page);
  await expect(failed).toHaveAttribute("data-stop-reason", "error");
  await expect(failed.locator(".stop-title")).toHaveText("The provider refused the API key (401)");
  await expect(failed.locator(".stop-detail")).toHaveText("401 invalid x-api-key");
  await expect(failed.locator(".stop-hint")).toHaveText(
    "Set ANTHROPIC_API_KEY to a valid key in the server's environment or in .env.local, then restart Strata.",
  );
  await expectIdle(page);
  await expect(retryNotice(page)).toHaveCount(0);
  expect(anthropicRequests(await mock.requests())).toHaveLength(1);
  await shot(page, "bad-key");
  // After a reload the stored message explains itself the same way: title, detail, hint and Retry.
  await page.reload();
  await expect(failed.locator(".stop-title")).toHaveText("The provider refused the API key (401)");
  await expect(failed.locator(".stop-detail")).toHaveText("401 invalid x-api-key");
  await expect(failed.locator(".stop-hint")).toHaveText(
    "Set ANTHROPIC_API_KEY to a valid key in the server's environment or in .env.local, then restart Strata.",
  );
  await expect(failed.getByRole("button", { name: "Retry" })).toBeVisible();

  await mock.script({ text: "Answer after retry." });
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(lastAssistant(page)).toHaveText("Answer after retry.");
  await expectIdle(page);
  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(2);
  expect(messagesOf(requests[1])).toEqual(messagesOf(requests[0]));
  expect(await transcript(page)).toEqual([
    "user: Say hello.",
    "assistant: Provider error (401 invalid x-api-key), retried",
    "assistant: Answer after retry.",
  ]);
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
});

test("Cancel on the retry notice stops the wait and leaves the error with a Retry button", async ({
  page,
  mock,
  openProject,
  shot,
}) => {
  await retrySettings(page, { baseDelayMs: 20000 });
  await mock.script({ error: { status: 503, message: "Service unavailable" } }, { text: "never asked for" });
  await openProject(page, uniqueName("cancel"), { "README.md": README });
  await send(page, "Say hello.");

  await expect(retryNotice(page).locator(".notice-title")).toHaveText("Retrying (1/3) in 20s...");
  await expect(retryNotice(page).locator(".retry-error")).toHaveText("503 Service unavailable");
  // The run is still going: no Retry button, no hint yet, and the composer offers Abort.
  await expect(lastAssistant(page).getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(lastAssistant(page).locator(".stop-hint")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Abort", exact: true })).toBeVisible();
  await shot(page, "retry-waiting");
  await retryNotice(page).getByRole("button", { name: "Cancel" }).click();
  await expect(retryNotice(page)).toHaveCount(0);
  await expectIdle(page);
  await expect(page.getByRole("alert").filter({ hasText: "Retry failed" })).toHaveText(
    "Retry failed after 1 attempts: Retry cancelled",
  );
  const failed = lastAssistant(page);
  await expect(failed.locator(".stop-title")).toHaveText("The provider is unavailable or rate-limited (503)");
  await expect(failed.locator(".stop-hint")).toHaveText(
    "This is usually temporary: press Retry in a moment.",
  );
  await expect(failed.getByRole("button", { name: "Retry" })).toBeVisible();
  await shot(page, "retry-cancelled");
  // The run is over on the server (no live run on the session): nothing more can reach the provider.
  const projectId = new URL(page.url()).pathname.split("/").pop();
  const { sessions } = (await (await page.request.get(`/api/projects/${projectId}/sessions`)).json()) as {
    sessions: { id: string }[];
  };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/sessions/${sessions[0].id}`)).json()) as { run: unknown }).run,
    )
    .toBeNull();
  const requests = anthropicRequests(await mock.requests());
  expect(requests).toHaveLength(1);
  expect(await transcript(page)).toEqual([
    "user: Say hello.",
    "assistant: The provider is unavailable or rate-limited (503)503 Service unavailableThis is usually temporary: press Retry in a moment.Retry",
  ]);
});

test("an unknown model says so and where to pick another", async ({ page, mock, openProject }) => {
  await mock.script({ error: { status: 404, message: "model: claude-sonnet-4-5" } });
  await openProject(page, uniqueName("nomodel"), { "README.md": README });
  await send(page, "Say hello.");
  const failed = lastAssistant(page);
  await expect(failed.locator(".stop-title")).toHaveText(
    "The provider does not know anthropic/claude-sonnet-4-5 (404)",
  );
  await expect(failed.locator(".stop-detail")).toHaveText("404 model: claude-sonnet-4-5");
  await expect(failed.locator(".stop-hint")).toHaveText(
    "Pick another model in the model picker, or fix STRATA_DEFAULT_MODEL / STRATA_MODELS and restart Strata.",
  );
  await expectIdle(page);
  expect(anthropicRequests(await mock.requests())).toHaveLength(1);
});
