/**
 * Provider keys never leave the server (issue 11, "What it must show" 3), end to end in Chromium on the build. The
 * server environment holds recognisable test keys (tests/e2e/ports.ts, `…LEAKTEST…`); the owner sets workspace
 * secrets (`…LEAKTEST…` too) through /workspaces/<id>/settings; a prompt runs and the mock provider must receive the
 * WORKSPACE key (its SHA-256 recorded by the mock), proving the secret is used. Then every page (the HTML and its
 * flight data), every GET API route on disk, the preview, an SSE stream, the session export, the `.next` build and
 * the server's stdout/stderr log are searched: zero occurrences of `LEAKTEST` or of STRATA_SECRETS_KEY.
 * A member of a team sees that only owners and admins manage secrets. Screenshots in STRATA_E2E_SHOTS.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { mockProviderClient } from "../mock-provider";
import { composer, expectIdle, openZipProject, uniqueName } from "./helpers";
import {
  E2E_APP_URL,
  E2E_MOCK_URL,
  E2E_SECRETS_KEY,
  E2E_SERVER_ANTHROPIC_KEY,
  E2E_SERVER_LOG,
} from "./ports";

const mock = mockProviderClient(E2E_MOCK_URL);
const SHOTS = process.env.STRATA_E2E_SHOTS ?? "/tmp/strata-secrets-shots";
const root = path.resolve(import.meta.dirname, "../..");

/** The workspace's secrets: distinct from the server environment's keys, recognisable in any text. */
const WORKSPACE_ANTHROPIC_KEY = "sk-ant-LEAKTEST-workspace-c41d9e7a";
const WORKSPACE_MISTRAL_KEY = "LEAKTEST-workspace-mistral-0b8f2d";
/** What must never appear: every test key contains it, plus the encryption key itself. */
const NEEDLES = ["LEAKTEST", E2E_SECRETS_KEY];

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Every place `text` (named `where`) contains a needle, as "where: needle". */
function leaks(where: string, text: string | Buffer): string[] {
  return NEEDLES.filter((n) => text.includes(n)).map((n) => `${where}: ${n.slice(0, 12)}…`);
}

/** Every file below `dir` (recursively). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : e.isFile() ? [full] : [];
  });
}

/**
 * The URL of each GET route file under app/api (Better Auth's catch-all aside): `[id]` after projects / sessions /
 * workspaces is the test's project / session / workspace, any other segment a placeholder.
 */
function getRoutes(ids: { projectId: string; sessionId: string; workspaceId: string }): string[] {
  const apiDir = path.join(root, "app/api");
  return filesUnder(apiDir)
    .filter((f) => f.endsWith(`${path.sep}route.ts`) && !f.includes("[...all]"))
    .filter((f) => /export const GET\b|export (async )?function GET\b/.test(fs.readFileSync(f, "utf8")))
    .map((f) => {
      const parts = path.relative(root, path.dirname(f)).split(path.sep).slice(1);
      const segments = parts.map((p, i) => {
        if (!p.startsWith("[")) return p;
        if (p === "[id]" && parts[i - 1] === "projects") return ids.projectId;
        if (p === "[id]" && parts[i - 1] === "sessions") return ids.sessionId;
        if (p === "[id]" && parts[i - 1] === "workspaces") return ids.workspaceId;
        return p.startsWith("[...") ? "nope" : "x";
      });
      return `/${segments.join("/")}?path=README.md&project=${ids.projectId}`;
    });
}

async function newMember(browser: Browser, name: string): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext({
    baseURL: E2E_APP_URL,
    storageState: { cookies: [], origins: [] },
  });
  const page = await context.newPage();
  const email = `${name.toLowerCase()}-${Date.now().toString(36)}@example.test`;
  const res = await page.request.post("/api/auth/sign-up/email", {
    data: { email, password: "correct horse battery", name },
    headers: { origin: E2E_APP_URL },
  });
  expect(res.status()).toBe(200);
  return { page, email };
}

test("workspace and server provider keys never appear in pages, APIs, streams, exports, the build or the log", async ({
  page,
}) => {
  test.setTimeout(180_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const seen: Promise<string[]>[] = [];
  // Every response the browser gets (HTML, flight data, JS/CSS chunks, JSON, SSE) is searched.
  page.on("response", (response) => {
    seen.push(
      response.body().then(
        (body) => leaks(`browser ${response.request().method()} ${response.url()}`, body),
        () => [],
      ),
    );
  });

  const workspaces = (await (await page.request.get("/api/workspaces")).json()) as {
    workspaces: { id: string; kind: string }[];
  };
  const workspaceId = workspaces.workspaces.find((w) => w.kind === "personal")?.id as string;
  expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);

  // The owner sets two secrets through the settings page.
  await page.goto(`/workspaces/${workspaceId}/settings`);
  await expect(page.getByRole("heading", { name: "Provider keys" })).toBeVisible();
  const anthropicRow = page.locator('[data-secret="ANTHROPIC_API_KEY"]');
  await expect(anthropicRow).toContainText("not set here · the server environment's value applies");
  await page.getByRole("button", { name: "Set ANTHROPIC_API_KEY" }).click();
  const field = page.getByLabel("New value for ANTHROPIC_API_KEY");
  await expect(field).toHaveAttribute("type", "password");
  await field.fill(WORKSPACE_ANTHROPIC_KEY);
  // The row's own Save (the page also has the git credentials form's).
  await anthropicRow.getByRole("button", { name: "Save", exact: true }).click();
  await expect(
    page.getByText("ANTHROPIC_API_KEY saved. New prompts in this workspace's projects use it."),
  ).toBeVisible();
  await expect(anthropicRow).toContainText(
    /set · updated by Local owner, .+\(overrides the server environment\)/,
  );
  await expect(page.getByLabel("New value for ANTHROPIC_API_KEY")).toHaveCount(0);
  await page.getByRole("button", { name: "Set MISTRAL_API_KEY" }).click();
  await page.getByLabel("New value for MISTRAL_API_KEY").fill(WORKSPACE_MISTRAL_KEY);
  await page
    .locator('[data-secret="MISTRAL_API_KEY"]')
    .getByRole("button", { name: "Save", exact: true })
    .click();
  await expect(page.locator('[data-secret="MISTRAL_API_KEY"]')).toContainText("set · updated by Local owner");
  await page.screenshot({ path: `${SHOTS}/workspace-secrets.png`, fullPage: true });
  // Delete asks first; Cancel keeps it.
  await page.getByRole("button", { name: "Delete MISTRAL_API_KEY" }).click();
  await expect(page.getByRole("group", { name: "Confirm deleting MISTRAL_API_KEY" })).toContainText(
    "Delete MISTRAL_API_KEY?",
  );
  await page.screenshot({ path: `${SHOTS}/workspace-secrets-confirm.png`, fullPage: true });
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.reload();
  await expect(page.locator('[data-secret="MISTRAL_API_KEY"]')).toContainText("set · updated by Local owner");
  expect(leaks("settings DOM", await page.content())).toEqual([]);

  // A prompt: the mock provider receives the workspace key, not the server environment's.
  await mock.reset();
  await mock.script({ text: "Answered with the workspace key." }, { text: "Second answer over SSE." });
  await openZipProject(page, uniqueName("leak"), { "README.md": "# Leak test\n" });
  const projectId = new URL(page.url()).pathname.split("/").pop() as string;
  // The model list of this project includes Mistral: the workspace's key configures it (no server key for it).
  const config = (await (await page.request.get(`/api/config?project=${projectId}`)).json()) as {
    models: { id: string }[];
  };
  expect(config.models.some((m) => m.id.startsWith("mistral/"))).toBe(true);
  await composer(page).fill("Which key do you see?");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("message-assistant").last()).toContainText(
    "Answered with the workspace key.",
  );
  await expectIdle(page);
  const requests = (await mock.requests()).filter((r) => r.path === "/v1/messages");
  expect(requests.map((r) => r.credentialSha256)).toEqual([sha256(WORKSPACE_ANTHROPIC_KEY)]);
  expect(requests[0].credentialSha256).not.toBe(sha256(E2E_SERVER_ANTHROPIC_KEY));
  expect(leaks("IDE DOM", await page.content())).toEqual([]);

  const sessionId = await page.evaluate(() => {
    const key = Object.keys(window.localStorage).find((k) => k.startsWith("strata.session."));
    return key ? window.localStorage.getItem(key) : null;
  });
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  const ids = { projectId, sessionId: sessionId as string, workspaceId };
  const found: string[] = [];

  // An SSE stream read whole, the export, the preview.
  const sse = await page.request.post(`/api/sessions/${sessionId}/prompt`, {
    data: { text: "Once more, over SSE." },
    headers: { origin: E2E_APP_URL },
  });
  const sseText = await sse.text();
  expect(sseText).toContain("Second answer over SSE.");
  found.push(...leaks("SSE /prompt", sseText));
  expect(
    (await mock.requests()).filter((r) => r.path === "/v1/messages").map((r) => r.credentialSha256),
  ).toEqual([sha256(WORKSPACE_ANTHROPIC_KEY), sha256(WORKSPACE_ANTHROPIC_KEY)]);
  const exported = await page.request.get(`/api/sessions/${sessionId}/export`);
  expect(exported.status()).toBe(200);
  const exportText = await exported.text();
  expect(exportText).toContain("Second answer over SSE.");
  found.push(...leaks("export", exportText));
  const preview = await page.request.post(`/api/sessions/${sessionId}/preview`, {
    data: { text: "preview me" },
    headers: { origin: E2E_APP_URL },
  });
  expect(preview.status()).toBe(200);
  found.push(...leaks("preview", await preview.text()));

  // Every GET route on disk, and Better Auth's listing routes.
  const routes = [
    ...getRoutes(ids),
    "/api/auth/get-session",
    "/api/auth/list-sessions",
    "/api/auth/api-key/list",
    "/api/auth/organization/list",
  ];
  expect(routes).toContain(`/api/workspaces/${workspaceId}/secrets?path=README.md&project=${projectId}`);
  for (const url of routes) {
    const res = await page.request.get(url);
    found.push(...leaks(`GET ${url} (${res.status()})`, await res.body()));
  }
  const secretsList = await page.request.get(`/api/workspaces/${workspaceId}/secrets`);
  expect(((await secretsList.json()) as { secrets: { name: string }[] }).secrets.map((s) => s.name)).toEqual([
    "ANTHROPIC_API_KEY",
    "MISTRAL_API_KEY",
  ]);

  // Every page (visited in the browser: its HTML, flight data and chunks go through the response listener).
  const pages = [
    "/",
    `/?workspace=${workspaceId}`,
    `/projects/${projectId}`,
    `/workspaces/${workspaceId}/settings`,
    "/settings",
    "/agent",
    "/teams/new",
    `/teams/${workspaceId}`,
    "/sign-in",
    "/sign-up",
    "/invite/not-a-token",
    "/invitations/00000000-0000-0000-0000-000000000000",
    "/no-such-page",
  ];
  for (const url of pages) {
    await page.goto(url);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    found.push(...leaks(`page ${url}`, await page.content()));
  }

  const browserLeaks = (await Promise.all(seen)).flat();
  found.push(...browserLeaks);
  expect(seen.length).toBeGreaterThan(20);

  // The build.
  const nextFiles = filesUnder(path.join(root, ".next"));
  expect(nextFiles.length).toBeGreaterThan(50);
  for (const file of nextFiles) {
    if (fs.statSync(file).size > 200 * 1024 * 1024) continue;
    found.push(...leaks(`build ${path.relative(root, file)}`, fs.readFileSync(file)));
  }

  // The server's own log (stdout + stderr of next start, copied by tests/e2e/server.ts).
  await new Promise((r) => setTimeout(r, 500));
  const log = fs.readFileSync(E2E_SERVER_LOG, "utf8");
  expect(log.length).toBeGreaterThan(0);
  found.push(...leaks("server log", log));

  expect(found).toEqual([]);
});

test("a member of a team sees that only owners and admins manage secrets; the API answers 403", async ({
  page,
  browser,
}) => {
  // Better Auth's organization calls from the pages themselves (the browser sends the Origin it checks).
  const call = (p: Page, url: string, body: unknown) =>
    p.evaluate(
      async ([u, b]) => {
        const res = await fetch(u as string, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: (await res.json()) as { id: string } };
      },
      [url, body] as const,
    );
  await page.goto("/settings");
  const suffix = Date.now().toString(36);
  const team = await call(page, "/api/auth/organization/create", {
    keepCurrentActiveOrganization: true,
    name: `Keys ${suffix}`,
    slug: `keys-${suffix}`,
  });
  expect(team, JSON.stringify(team)).toMatchObject({ status: 200 });
  const teamId = team.body.id;
  const member = await newMember(browser, "Mira");
  const invitation = await call(page, "/api/auth/organization/invite-member", {
    email: member.email,
    role: "member",
    organizationId: teamId,
  });
  expect(invitation.status).toBe(200);
  await member.page.goto("/settings");
  const accepted = await call(member.page, "/api/auth/organization/accept-invitation", {
    invitationId: invitation.body.id,
  });
  expect(accepted.status).toBe(200);

  await member.page.goto(`/workspaces/${teamId}/settings`);
  await expect(member.page.getByRole("note").filter({ hasText: "secrets" })).toHaveText(
    "Only owners and admins manage secrets. Ask one of them to set a provider key for this workspace.",
  );
  await expect(member.page.getByRole("button", { name: /^Set / })).toHaveCount(0);
  await member.page.screenshot({ path: `${SHOTS}/workspace-secrets-member.png`, fullPage: true });
  const refused = await member.page.request.put(`/api/workspaces/${teamId}/secrets/ANTHROPIC_API_KEY`, {
    data: { value: "sk-ant-LEAKTEST-member" },
    headers: { origin: E2E_APP_URL },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  await member.page.context().close();
});
