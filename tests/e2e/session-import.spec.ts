/**
 * The IDE's session import, as a person does it: a pi file chosen with "Import session file" is imported with every
 * entry shown and "No problems found."; a file with a poisoned entry is refused with its line and nothing is added.
 * How a big file travels (a 15.7 MB file in four parts through the same client, `importSessionFile`, every entry
 * stored, the limits) is tests/integration/session/session-import-upload.test.ts, which needs no browser.
 */

import { largeSessionFile, sessionFile } from "../helpers/session-files";
import { expect, test } from "./fixtures";
import { uniqueName } from "./helpers";

test("a session file imports with all its entries shown; a poisoned one is refused with its line", async ({
  page,
  openProject,
}) => {
  await openProject(page, uniqueName("imp"), { "README.md": "# imp\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() ?? "";
  // About 10 KB per message: 200 KB in about 20 entries.
  const file = largeSessionFile(200 * 1000, 240);
  await page.getByLabel("Import session file").setInputFiles({
    name: "big.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(file.text),
  });
  await expect(page.getByText("Imported big.jsonl as")).toBeVisible();
  await expect(page.getByText("No problems found.")).toBeVisible();
  const conversation = page.getByRole("log", { name: "Conversation" });
  await expect(
    conversation.locator('article[data-testid="message-user"], article[data-testid="message-assistant"]'),
  ).toHaveCount(file.entries);
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
