/**
 * Sharing one branch by link, end to end in Chromium (docs/sharing.md): the owner's project holds a `.env` with an
 * OpenAI project key and the conversation's prompt carries an `sk-…` key and a code name. From the session's "⋯"
 * menu the owner opens the Share dialog: the preview lists every redaction in a table (the prompt's key, the
 * `.env` value once "Include files at this checkpoint" is ticked, the owner's own string once added; a too-short
 * string is refused with a message), then publishes. Signed out, the link renders the title with `noindex` (meta and
 * header) and `no-store`, and none of the secrets, the code name or the system prompt (off by default). A second user
 * forks it ("Fork to my workspace"), lands in the new project with the shared files, continues the conversation
 * with the mock model, and runs the shared code's tests (`!python3 -m unittest`): they pass, so the share kept the
 * code (`key = …lambda`, `token = next(…)`, `password_hint = …`) byte for byte. The owner revokes it from Settings → Shared links; the page, the data URL and the fork URL
 * then answer 404. The tree's "Share this branch…" and branch downloads are checked on the way. Screenshots in
 * $STRATA_E2E_SHOTS.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";
import { E2E_APP_URL } from "./ports";

const suffix = Date.now().toString(36);
const ENV_KEY = `sk-proj-${"Q7f2".repeat(10)}${suffix}`;
const PROMPT_KEY = `sk-${"Zr9X".repeat(8)}${suffix}`;
const CODENAME = `NIGHTJAR${suffix.toUpperCase()}`;
const SYSTEM_TEXT = "You are an expert coding assistant";
// Ordinary code with secret-sounding names: a share with files must keep every byte of it.
const RANKS_PY =
  "def ranked(rows, key=None):\n    key = key or (lambda row: row[1])\n    token = next(iter(rows), None)\n    password_hint = 'see docs'\n    return sorted(rows, key=key), token, password_hint\n";
const TEST_RANKS_PY =
  "import unittest\nfrom ranks import ranked\n\nclass Ranked(unittest.TestCase):\n    def test_sorts_by_score(self):\n        rows = [('b', 2), ('a', 1)]\n        self.assertEqual(ranked(rows)[0], [('a', 1), ('b', 2)])\n\n    def test_hint(self):\n        self.assertEqual(ranked([])[2], 'see docs')\n";

test("share a branch: preview with redactions, publish, open signed out, fork, revoke", async ({
  page,
  browser,
  mock,
  openProject,
  shot,
  newUser,
}) => {
  test.slow();
  await mock.script(
    { text: "Reading it.", toolCalls: [{ id: "toolu_share_1", name: "read", input: { path: "README.md" } }] },
    { text: "The README says: Shared demo." },
  );
  await openProject(page, uniqueName("share"), {
    "README.md": "# Shared demo\n",
    ".env": `OPENAI_API_KEY=${ENV_KEY}\n`,
    "ranks.py": RANKS_PY,
    "tests/test_ranks.py": TEST_RANKS_PY,
  });
  await composer(page).fill(`Project ${CODENAME}: use the key ${PROMPT_KEY} and read README.md.`);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expectIdle(page);
  await expect(page.getByTestId("message-assistant").last()).toContainText("The README says: Shared demo.");

  // The tree offers "Share this branch…" and the branch's downloads (redacted like a share).
  await composer(page).press("Alt+t");
  const tree = page.getByRole("dialog", { name: "Session tree" });
  await expect(tree).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    tree.getByRole("button", { name: "Download conversation HTML" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.html$/);
  await expect(tree.getByRole("status")).toContainText(`Downloaded ${download.suggestedFilename()}.`);
  const exportedText = readFileSync((await download.path()) as string, "utf8");
  expect(exportedText).toContain("The README says: Shared demo.");
  expect(exportedText).not.toContain(PROMPT_KEY);
  const [jsonl] = await Promise.all([
    page.waitForEvent("download"),
    tree.getByRole("button", { name: "Download pi JSONL" }).click(),
  ]);
  expect(jsonl.suggestedFilename()).toMatch(/\.jsonl$/);
  expect(readFileSync((await jsonl.path()) as string, "utf8")).not.toContain(PROMPT_KEY);
  await shot(tree, "tree-actions");
  await tree.getByRole("button", { name: "Share this branch…" }).click();
  const fromTree = page.getByRole("dialog", { name: "Share this branch" });
  await expect(fromTree.getByRole("table", { name: "Redactions" })).toBeVisible();
  await fromTree.getByRole("button", { name: "Close" }).click();
  await expect(fromTree).toHaveCount(0);
  await tree.getByRole("button", { name: "Close the session tree" }).click();

  // The session's ⋯ menu → Share…: the preview and its redaction table.
  await page.getByRole("button", { name: "Session actions" }).click();
  await page.getByRole("menuitem", { name: "Share…" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this branch" });
  const files = dialog.getByLabel("Include files at this checkpoint");
  const system = dialog.getByLabel("Include system prompt and rules");
  await expect(files).not.toBeChecked();
  await expect(system).not.toBeChecked();
  const table = dialog.getByRole("table", { name: "Redactions" });
  const rows = table.locator("tbody tr");
  // The session's title is its first prompt with the key already taken out (when the session was titled): the
  // share redacts the key in the message only.
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText(/^Entry \d+ \(text\), line 1patternSecretKeySk/);
  await expect(rows.nth(0)).toContainText("use the key [redacted:SecretKeySk] and read README.md.");
  await expect(dialog).toContainText(/\d+ entries · 1 redaction/);
  await expect(dialog).not.toContainText(PROMPT_KEY.slice(8));

  // Files at the checkpoint: the .env value is redacted too.
  await files.check();
  const envRow = rows.filter({ hasText: ".env, line 1" });
  await expect(envRow).toHaveCount(1);
  await expect(envRow).toContainText("OPENAI_API_KEY=[redacted:");
  await expect(dialog).toContainText(/\d+ entries · 4 files · 2 redactions/);
  await dialog.getByText("Files shared:").click();
  const fileList = dialog.getByRole("list", { name: "Files shared" });
  await expect(fileList.getByRole("listitem")).toHaveText([
    /^\.env · \d+ B · 1 secret redacted$/,
    /^README\.md · \d+ B$/,
    /^ranks\.py · \d+ B$/,
    /^tests\/test_ranks\.py · \d+ B$/,
  ]);

  // The owner's own strings: too short is refused (nothing lost), a code name is added and previewed.
  const extra = dialog.getByLabel("Also redact (your own text, at least 4 characters)");
  await extra.fill("NIG");
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Type at least 4 characters (spaces at the ends do not count): shorter strings would redact too much.",
  );
  await expect(extra).toHaveValue("NIG");
  await extra.fill(CODENAME);
  await extra.press("Enter");
  await expect(dialog.getByRole("list", { name: "Your redactions" })).toContainText(CODENAME);
  const ownerRows = rows.filter({ hasText: "your string" });
  await expect(ownerRows).toHaveCount(2);
  await expect(ownerRows.nth(0)).toContainText("Titleyour stringownerProject [redacted:owner]");
  await expect(ownerRows.nth(1)).toContainText(
    "Project [redacted:owner]: use the key [redacted:SecretKeySk]",
  );
  await expect(dialog).toContainText("4 redactions");
  await shot(dialog, "share-dialog");

  // A publish refused as stale (the session changed meanwhile; simulated once) says so where the owner looks,
  // previews again at once, and keeps the owner's strings and choices.
  let stale = 0;
  await page.route("**/api/sessions/*/shares", (route) => {
    if (route.request().method() !== "POST" || stale++ > 0) return route.fallback();
    return route.fulfill({
      status: 409,
      json: { error: { code: "preview_stale", message: "The share would differ from the preview" } },
    });
  });
  await dialog.getByRole("button", { name: "Publish link" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "Could not publish the link: the session, its files or the rules changed since this preview. Review the new preview, then publish again.",
  );
  await expect(dialog.getByRole("list", { name: "Your redactions" })).toContainText(CODENAME);
  await expect(files).toBeChecked();
  await expect(dialog.getByRole("button", { name: "Publish link" })).toBeEnabled();
  await expect(rows).toHaveCount(4);
  await expect(dialog.getByRole("alert")).toContainText("Review the new preview, then publish again.");
  await shot(dialog, "share-dialog-stale");
  await dialog.getByRole("button", { name: "Publish link" }).click();
  const linkInput = dialog.getByLabel("Share link");
  await expect(linkInput).toHaveValue(new RegExp(`^${E2E_APP_URL}/s/[A-Za-z0-9_-]{32}$`));
  const link = await linkInput.inputValue();
  const token = link.split("/s/")[1];
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await expect(
    dialog.getByRole("list", { name: "Live links of this session" }).getByRole("listitem"),
  ).toHaveCount(1);
  await shot(page, "share-published");
  await dialog.getByRole("button", { name: "Close" }).click();

  // Signed out: the page renders, noindex and no-store; no secret, no code name, no system prompt.
  const anonymous = await browser.newContext({
    baseURL: E2E_APP_URL,
    storageState: { cookies: [], origins: [] },
  });
  const visitor = await anonymous.newPage();
  const res = await visitor.goto(link);
  expect(res?.status()).toBe(200);
  expect(res?.headers()["cache-control"]).toContain("no-store");
  expect(res?.headers()["x-robots-tag"]).toContain("noindex");
  await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(visitor.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(visitor.locator("body")).toContainText("The README says: Shared demo.");
  await expect(visitor.locator("body")).toContainText("4 secrets were redacted");
  const pageHtml = await visitor.content();
  for (const hidden of [ENV_KEY, PROMPT_KEY, CODENAME, SYSTEM_TEXT]) expect(pageHtml).not.toContain(hidden);
  await shot(visitor, "share-page-signed-out", { fullPage: true });
  const data = await visitor.request.get(`/api/s/${token}`);
  expect(data.status()).toBe(200);
  const dataText = await data.text();
  for (const hidden of [ENV_KEY, PROMPT_KEY, CODENAME, SYSTEM_TEXT]) expect(dataText).not.toContain(hidden);

  // A second user forks it and goes on with the files at the checkpoint.
  const { page: bea } = await newUser("Bea");
  await bea.goto(link);
  await bea.getByRole("button", { name: "Fork to my workspace" }).click();
  await expect(bea).toHaveURL(/\/projects\/[0-9a-f-]{36}$/);
  await expect(bea.getByRole("treeitem", { name: "README.md" })).toBeVisible();
  await expect(bea.getByRole("treeitem", { name: ".env" })).toBeVisible();
  await expect(bea.getByTestId("message-assistant").last()).toContainText("The README says: Shared demo.");
  await expect(bea.getByTestId("message-user").first()).toContainText("[redacted:owner]");
  await mock.script({ text: "Continuing from the shared branch." });
  await composer(bea).fill("Go on from here.");
  await bea.getByRole("button", { name: "Send", exact: true }).click();
  await expectIdle(bea);
  await expect(bea.getByTestId("message-assistant").last()).toContainText(
    "Continuing from the shared branch.",
  );
  // The shared code arrived intact: the fork's tests pass.
  await composer(bea).fill("!python3 -m unittest discover -s tests");
  await composer(bea).press("Enter");
  const run = bea.getByTestId("message-bashExecution").last();
  await expect(run.locator(".shell-status")).toHaveText("exit 0");
  await expect(run.locator("pre")).toContainText("Ran 2 tests");
  await expect(run.locator("pre")).toContainText("OK");

  // The owner revokes it from Settings → Shared links.
  await page.goto("/settings#shares");
  const section = page.getByRole("region", { name: "Shared links" });
  const row = section.getByRole("listitem").filter({ hasText: `/s/${token}` });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("4 redactions");
  await expect(row).toContainText("Never expires");
  await shot(section, "settings-shared-links");
  await row.getByRole("button", { name: /^Revoke / }).click();
  await shot(section, "settings-revoke-confirm");
  await row.getByRole("button", { name: "Revoke link" }).click();
  await expect(row).toHaveCount(0);

  // Every URL of the share is gone.
  expect((await visitor.goto(link))?.status()).toBe(404);
  expect((await visitor.request.get(`/api/s/${token}`)).status()).toBe(404);
  const fork = await bea.request.post(`/api/s/${token}/fork`, { data: {}, headers: { origin: E2E_APP_URL } });
  expect(fork.status()).toBe(404);
  await anonymous.close();
});
