/**
 * Provider keys never leave the server (issue 11, "What it must show" 3), end to end in Chromium on the build: what
 * only a browser and the running server show. The owner (an account without model keys: `modelKeys: false`) sets
 * workspace secrets (`…LEAKTEST…`) through /workspaces/<id>/settings; a prompt runs and the mock provider must
 * receive the WORKSPACE key (its SHA-256 recorded by the mock), proving the secret is used. Then every page (the HTML
 * and its flight data, every chunk the browser loads), the DOM, the `.next` build and the server's stdout/stderr log
 * are searched: zero occurrences of `LEAKTEST` (the workspace keys and the server environment's decoy key,
 * tests/e2e/ports.ts) or of STRATA_SECRETS_KEY. Every route handler's answer (each method, six callers, SSE streams,
 * the export, the preview, Better Auth's listings) is searched for the same in
 * tests/integration/auth/route-matrix.test.ts, which needs no browser. A member of a team sees that only owners and
 * admins manage secrets. Screenshots in STRATA_E2E_SHOTS.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { composer, expectIdle, uniqueName } from "./helpers";
import { E2E_APP_URL, E2E_SECRETS_KEY, E2E_SERVER_LOG } from "./ports";

const root = path.resolve(import.meta.dirname, "../..");

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

/** Set secret `name` to `value` through its row of the settings page. */
async function setSecret(page: Page, name: string, value: string): Promise<void> {
  await page.getByRole("button", { name: `Set ${name}` }).click();
  const field = page.getByLabel(`New value for ${name}`);
  await expect(field).toHaveAttribute("type", "password");
  await field.fill(value);
  // The row's own Save (the page also has the git credentials form's).
  await page.locator(`[data-secret="${name}"]`).getByRole("button", { name: "Save", exact: true }).click();
}

test.describe("an owner without model keys", () => {
  test.use({ modelKeys: false });

  test("workspace and server keys never appear in pages, the browser's responses, the build or the log", async ({
    page,
    user,
    scope,
    mock,
    openProject,
    shot,
  }) => {
    test.slow();
    // The workspace's keys: recognisable in any text, and (for the mock) naming this test's scope.
    const anthropicKey = `sk-ant-LEAKTEST-workspace-c41d9e7a-mock-scope-${scope}`;
    const mistralKey = "LEAKTEST-workspace-mistral-0b8f2d";
    const compatibleKey = "LEAKTEST-workspace-compatible-77e1aa";
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
    const workspaceId = user.workspaceId;

    // The owner sets two secrets through the settings page.
    await page.goto(`/workspaces/${workspaceId}/settings`);
    await expect(page.getByRole("heading", { name: "Provider keys" })).toBeVisible();
    const anthropicRow = page.locator('[data-secret="ANTHROPIC_API_KEY"]');
    await expect(anthropicRow).toContainText("not set");
    // The server's own (decoy) key: the page says it applies, never what it is; a workspace value overrides it.
    const compatibleRow = page.locator('[data-secret="OPENAI_COMPATIBLE_API_KEY"]');
    await expect(compatibleRow).toContainText("not set here · the server environment's value applies");
    await setSecret(page, "OPENAI_COMPATIBLE_API_KEY", compatibleKey);
    await expect(compatibleRow).toContainText(
      /set · updated by Test User, .+\(overrides the server environment\)/,
    );
    await setSecret(page, "ANTHROPIC_API_KEY", anthropicKey);
    await expect(
      page.getByText("ANTHROPIC_API_KEY saved. New prompts in this workspace's projects use it."),
    ).toBeVisible();
    await expect(anthropicRow).toContainText(/set · updated by Test User, .+/);
    await expect(page.getByLabel("New value for ANTHROPIC_API_KEY")).toHaveCount(0);
    await setSecret(page, "MISTRAL_API_KEY", mistralKey);
    await expect(page.locator('[data-secret="MISTRAL_API_KEY"]')).toContainText("set · updated by Test User");
    await shot(page, "workspace-secrets", { fullPage: true });
    // Delete asks first; Cancel keeps it.
    await page.getByRole("button", { name: "Delete MISTRAL_API_KEY" }).click();
    await expect(page.getByRole("group", { name: "Confirm deleting MISTRAL_API_KEY" })).toContainText(
      "Delete MISTRAL_API_KEY?",
    );
    await shot(page, "workspace-secrets-confirm", { fullPage: true });
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.reload();
    await expect(page.locator('[data-secret="MISTRAL_API_KEY"]')).toContainText("set · updated by Test User");
    expect(leaks("settings DOM", await page.content())).toEqual([]);

    // A prompt: the mock provider receives the workspace key.
    await mock.script({ text: "Answered with the workspace key." });
    const project = await openProject(page, uniqueName("leak"), { "README.md": "# Leak test\n" });
    // The model list of this project includes Mistral: the workspace's key configures it (no server key for it).
    const config = (await (await page.request.get(`/api/config?project=${project.id}`)).json()) as {
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
    expect(requests.map((r) => r.credentialSha256)).toEqual([sha256(anthropicKey)]);
    expect(leaks("IDE DOM", await page.content())).toEqual([]);
    const secretsList = await page.request.get(`/api/workspaces/${workspaceId}/secrets`);
    expect(
      ((await secretsList.json()) as { secrets: { name: string }[] }).secrets.map((s) => s.name),
    ).toEqual(["ANTHROPIC_API_KEY", "MISTRAL_API_KEY", "OPENAI_COMPATIBLE_API_KEY"]);

    // Every page (visited in the browser: its HTML, flight data and chunks go through the response listener).
    const found: string[] = [];
    const pages = [
      "/",
      `/?workspace=${workspaceId}`,
      `/projects/${project.id}`,
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
      // The IDE polls its change feed: a page may never be idle for long; its load is what is searched.
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
    const log = fs.readFileSync(E2E_SERVER_LOG, "utf8");
    expect(log.length).toBeGreaterThan(0);
    found.push(...leaks("server log", log));

    expect(found).toEqual([]);
  });
});

test("a member of a team sees that only owners and admins manage secrets; the API answers 403", async ({
  page,
  newUser,
  shot,
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
  const member = await newUser("Mira");
  const invitation = await call(page, "/api/auth/organization/invite-member", {
    email: member.user.email,
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
  await shot(member.page, "workspace-secrets-member", { fullPage: true });
  const refused = await member.page.request.put(`/api/workspaces/${teamId}/secrets/ANTHROPIC_API_KEY`, {
    data: { value: "sk-ant-LEAKTEST-member" },
    headers: { origin: E2E_APP_URL },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("forbidden");
});
