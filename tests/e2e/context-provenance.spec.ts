/**
 * Provenance of the rules in effect, in Chromium: a fresh account creates a team, writes the team's AGENTS.md (a
 * commit by them), its own agent dir AGENTS.md, and imports a project with an AGENTS.md into the team. The Context
 * panel lists the three context files with their Team / Personal / Project badges, paths and "changed by …" lines
 * (title = the exact ISO time). Then they propose a change and preview it in the session: the banner names the
 * proposal, Stop preview ends it. Screenshots in test-results/.
 */
import type { Page } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { timeAgo } from "../../components/chat/time-ago";
import { expect, test } from "./fixtures";
import { E2E_APP_URL } from "./ports";

const PASSWORD = "correct-horse-battery-staple";
const headers = { origin: E2E_APP_URL };

async function call<T>(page: Page, method: "POST" | "PUT", path: string, data: unknown): Promise<T> {
  const res = await page.request.fetch(path, { method, data, headers });
  const text = await res.text();
  expect(res.ok(), `${method} ${path}: ${text}`).toBe(true);
  return JSON.parse(text) as T;
}

test("Context panel: scope badges, last change, proposal preview banner", async ({ browser, shot }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  const email = `ada-${Date.now().toString(36)}@example.test`;
  await call(page, "POST", "/api/auth/sign-up/email", { email, password: PASSWORD, name: "Ada Lovelace" });
  const team = await call<{ id: string }>(page, "POST", "/api/auth/organization/create", {
    name: "Analytical Engines",
    slug: `engines-${Date.now().toString(36)}`,
  });
  await call(page, "PUT", `/api/workspaces/${team.id}/rules/file?path=AGENTS.md`, {
    content: "Review every change.\n",
    message: "Team rules",
  });
  await call(page, "PUT", "/api/agent/file", { path: "AGENTS.md", content: "Answer briefly.\n" });
  const zip = zipSync({ "engine/AGENTS.md": strToU8("Use tabs.\n") });
  const res = await page.request.post("/api/projects", {
    headers,
    multipart: {
      file: { name: "engine.zip", mimeType: "application/zip", buffer: Buffer.from(zip) },
      workspaceId: team.id,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { project } = (await res.json()) as { project: { id: string } };

  // The page's clock stands still at a known time, so "changed by … · <how long ago>" is exact however long the
  // steps above took (the wording itself: tests/unit/components/time-ago.test.ts).
  const now = Date.now();
  await page.clock.setFixedTime(now);
  await page.goto(`/projects/${project.id}`);
  const panel = page.getByRole("region", { name: "Context", exact: true });
  await panel.getByRole("button", { name: "Context", exact: true }).click();
  const files = panel.getByRole("region", { name: "Context files" }).getByRole("listitem");
  await expect(files).toHaveCount(3);
  /** The file's "changed by" line: its title is the change's exact ISO time, its text how long ago that was. */
  const changedLine = async (n: number) => {
    const line = files.nth(n).getByText(/^changed by/);
    const iso = (await line.getAttribute("title")) ?? "";
    expect(iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(iso)).toBeLessThanOrEqual(now);
    await expect(line).toHaveText(`changed by Ada Lovelace · ${timeAgo(iso, now)}`);
  };
  await expect(files.nth(0)).toContainText("Personal");
  await expect(files.nth(0)).toContainText("/.pi/agent/AGENTS.md");
  await changedLine(0);
  await expect(files.nth(1)).toContainText("Team");
  await expect(files.nth(1)).toContainText("/.team/AGENTS.md");
  await changedLine(1);
  await expect(files.nth(2)).toContainText("Project");
  await expect(files.nth(2)).toContainText("/engine/AGENTS.md");
  await shot(page, "context-provenance", { fullPage: true });

  const { proposal } = await call<{ proposal: { id: string } }>(
    page,
    "POST",
    `/api/workspaces/${team.id}/rules/proposals`,
    { title: "Stricter reviews", changes: [{ path: "AGENTS.md", content: "Review every change twice.\n" }] },
  );
  const { sessions } = (await (await page.request.get(`/api/projects/${project.id}/sessions`)).json()) as {
    sessions: { id: string }[];
  };
  expect(sessions).toHaveLength(1);
  await call(page, "PUT", `/api/sessions/${sessions[0].id}/rules-preview`, { proposalId: proposal.id });

  await page.reload();
  await panel.getByRole("button", { name: "Context", exact: true }).click();
  const banner = panel.getByRole("status").filter({ hasText: "Previewing proposal" });
  await expect(banner).toContainText("Previewing proposal “Stricter reviews” — not merged");
  await expect(files.nth(1)).toContainText("/.team/AGENTS.md");
  await shot(page, "context-preview", { fullPage: true });
  await banner.getByRole("button", { name: "Stop preview" }).click();
  await expect(banner).toBeHidden();
  await context.close();
});
