/**
 * Issue 13, "rule loading you can trust", in Chromium: a git repository (cloned through the import, which keeps its
 * symlinks) whose `pkg/AGENTS.md` links to the root `AGENTS.md`, whose `pkg/app/AGENTS.md` is 70,000 bytes, and whose
 * `pkg/app/src/AGENTS.md` links out of the workspace (beside a `CLAUDE.md` that must not stand in for it). A session
 * working in `pkg/app/src` (an imported pi session file whose header names that cwd) opens the Context panel: the
 * symlinked AGENTS.md is listed once (naming its other path), the 70,000-byte file is marked truncated with its bytes
 * and marker line, and the escaping link is a diagnostic; CLAUDE.md is not in effect. Screenshot in test-results/.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type GitServer, makeBareClone, startGitServer } from "../git-server";
import { expect, test } from "./fixtures";
import { E2E_APP_URL } from "./ports";

const LINE = `${"r".repeat(99)}\n`;

async function makeRepo(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "strata-rule-links-"));
  await mkdir(join(dir, "pkg/app/src"), { recursive: true });
  writeFileSync(join(dir, "AGENTS.md"), "Root rules.\n");
  symlinkSync("../AGENTS.md", join(dir, "pkg/AGENTS.md"));
  writeFileSync(join(dir, "pkg/app/AGENTS.md"), LINE.repeat(700));
  symlinkSync("../../../../../../etc/AGENTS.md", join(dir, "pkg/app/src/AGENTS.md"));
  writeFileSync(join(dir, "pkg/app/src/CLAUDE.md"), "Fallback rules.\n");
  writeFileSync(join(dir, "pkg/app/src/main.ts"), "export {};\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git(
    "-c",
    "user.name=Rules",
    "-c",
    "user.email=rules@example.test",
    "commit",
    "-q",
    "-m",
    "Rules with links",
  );
  return makeBareClone(dir);
}

let server: GitServer | undefined;
test.afterAll(async () => {
  await server?.close();
});

test("Context panel: a symlinked AGENTS.md once, an escaping link as a diagnostic, a truncated file", async ({
  page,
  shot,
}) => {
  test.setTimeout(120_000);
  server = await startGitServer({ repos: { rules: await makeRepo() }, port: 0 });
  const name = `rules-${Date.now().toString(36)}`;
  const res = await page.request.post("/api/projects", {
    headers: { origin: E2E_APP_URL },
    data: { gitUrl: `${server.url}/rules.git`, name },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { project } = (await res.json()) as { project: { id: string; rootPath: string } };
  const root = project.rootPath;
  const cwd = `${root}/pkg/app/src`;

  await page.goto(`/projects/${project.id}`);
  await expect(page.getByRole("region", { name: "Context", exact: true })).toContainText("in effect");
  const header = {
    type: "session",
    version: 3,
    id: "0198a6f0-0000-7000-8000-00000000c0c0",
    timestamp: "2026-01-01T09:00:00.000Z",
    cwd,
  };
  const entry = {
    type: "message",
    id: "c0c0c0c0",
    parentId: null,
    timestamp: "2026-01-01T09:00:01.000Z",
    message: { role: "user", content: "Which rules apply here?", timestamp: 1767258001000 },
  };
  await page.getByLabel("Import session file").setInputFiles({
    name: "in-src.jsonl",
    mimeType: "application/x-ndjson",
    buffer: Buffer.from(`${JSON.stringify(header)}\n${JSON.stringify(entry)}\n`),
  });
  await expect(page.getByText("Imported in-src.jsonl as")).toBeVisible();
  await page.getByRole("button", { name: "Dismiss" }).click();

  const panel = page.getByRole("region", { name: "Context", exact: true });
  await expect(panel.locator(".badge-warn").filter({ hasText: "diagnostic" })).toHaveText("2 diagnostics");
  await panel.getByRole("button", { name: "Context", exact: true }).click();
  await expect(panel.getByText(cwd, { exact: true })).toBeVisible();

  const files = panel.getByRole("region", { name: "Context files" }).getByRole("listitem");
  await expect(files).toHaveCount(2);
  await expect(files.nth(0)).toContainText(`${root}/pkg/AGENTS.md`);
  await expect(files.nth(0)).toContainText(
    `Same file as ${root}/AGENTS.md (real path ${root}/AGENTS.md); loaded once`,
  );
  await expect(files.nth(1)).toContainText(`${root}/pkg/app/AGENTS.md`);
  await expect(files.nth(1)).toContainText("truncated");
  await expect(files.nth(1)).toContainText("65500 of 70000 bytes loaded");
  await expect(files.nth(1).locator("code")).toHaveText(
    `[Strata: truncated ${root}/pkg/app/AGENTS.md: loaded 65500 of 70000 bytes (per-file cap 65536 bytes)]`,
  );
  await expect(panel.getByText(`${root}/pkg/app/src/CLAUDE.md`)).toHaveCount(0);

  const diagnostics = panel
    .getByRole("status")
    .filter({ hasText: "Resource diagnostics" })
    .getByRole("listitem");
  await expect(diagnostics).toHaveText([
    `warning: symlink ${cwd}/AGENTS.md -> ../../../../../../etc/AGENTS.md leaves the workspace; not followed, and no other context file of ${cwd} is loaded in its place (${cwd}/AGENTS.md)`,
    `warning: Context file ${root}/pkg/app/AGENTS.md truncated: 70000 bytes, 65500 loaded (per-file cap 65536 bytes) (${root}/pkg/app/AGENTS.md)`,
  ]);
  await shot(page, "rule-loading", { fullPage: true });
  // The panel scrolls: the truncated file, its sizes and its marker line.
  await files.nth(1).scrollIntoViewIfNeeded();
  await shot(panel, "rule-loading-truncated");
});
