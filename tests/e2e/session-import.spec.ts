/**
 * The IDE's session import: a 15.7 MB pi file (over one request's 8 MiB) is imported in parts with every entry
 * shown; a file with a poisoned entry is refused with its line and nothing is added.
 */
import { expect, test } from "@playwright/test";
import { largeSessionFile, sessionFile } from "../helpers/session-files";
import { openZipProject, uniqueName } from "./helpers";

test("a 15.7 MB session file imports in parts with all its entries; a poisoned one is refused with its line", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openZipProject(page, uniqueName("imp"), { "README.md": "# imp\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() ?? "";
  // About 100 KB per message: 15.7 MB in about 160 entries.
  const file = largeSessionFile(Math.round(15.7 * 1000 * 1000), 2400);
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/sessions/import"))
      uploads.push(`${r.method()} ${new URL(r.url()).pathname.replace(/[0-9a-f-]{36}/g, ":id")}`);
  });
  await page.getByLabel("Import session file").setInputFiles({
    name: "big.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(file.text),
  });
  await expect(page.getByText("Imported big.jsonl as")).toBeVisible({ timeout: 120_000 });
  await expect(page.getByText("No problems found.")).toBeVisible();
  expect(uploads).toEqual([
    "POST /api/projects/:id/sessions/import/uploads",
    ...[0, 1, 2, 3].map((n) => `PUT /api/projects/:id/sessions/import/uploads/:id/parts/${n}`),
    "POST /api/projects/:id/sessions/import/uploads/:id",
  ]);
  const conversation = page.getByRole("log", { name: "Conversation" });
  // 15.7 MB of messages to fetch and render: on a loaded 2-core machine this takes longer than the default wait.
  await expect(
    conversation.locator('article[data-testid="message-user"], article[data-testid="message-assistant"]'),
  ).toHaveCount(file.entries, { timeout: 90_000 });
  const sessions = (await (await page.request.get(`/api/projects/${projectId}/sessions`)).json()) as {
    sessions: { id: string }[];
  };

  await page.getByRole("button", { name: "Dismiss" }).click();
  const poisoned = sessionFile({
    type: "message",
    id: null,
    parentId: null,
    timestamp: "t",
    message: { role: "user", content: "x", timestamp: 1 },
  });
  await page.getByLabel("Import session file").setInputFiles({
    name: "poison.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(poisoned),
  });
  const alert = page.getByRole("alert").filter({ hasText: "Could not import poison.jsonl" });
  await expect(alert).toContainText(
    'poison.jsonl:2: invalid-entry: Line 2: "id" must be a non-empty string (got null); every entry needs a unique id',
  );
  const after = (await (await page.request.get(`/api/projects/${projectId}/sessions`)).json()) as {
    sessions: { id: string }[];
  };
  expect(after.sessions).toHaveLength(sessions.sessions.length);
});
