/**
 * A personal access token from the settings page drives `npx strata` against the running server (the issue's
 * item 4): export a stored session, preview its next prompt and import the export back, all as the token's user;
 * after the token is revoked in the settings page the same command is refused with the server's 401.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { uniqueName } from "./helpers";
import { E2E_APP_URL } from "./ports";

const root = path.resolve(import.meta.dirname, "../..");

/** Run the CLI (bin/strata.mjs) with `args`; resolves with its exit code and output (never rejects). */
function strata(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.DATABASE_URL;
    delete env.STRATA_DB_PROXY;
    execFile(
      process.execPath,
      [path.join(root, "bin/strata.mjs"), ...args],
      { cwd: root, env },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test.use({ storageState: { cookies: [], origins: [] } });

test("a token made in settings runs npx strata against the server until it is revoked", async ({
  page,
  openProject,
}) => {
  const email = `cli-${Date.now().toString(36)}@example.test`;
  const signUp = await page.request.post("/api/auth/sign-up/email", {
    data: { email, password: "cli password 1", name: "Cli User" },
    headers: { origin: E2E_APP_URL },
  });
  expect(signUp.status()).toBe(200);

  const name = uniqueName("cli-token");
  await openProject(page, name, { "README.md": "# CLI demo\n", "AGENTS.md": "Answer briefly.\n" });
  const projectId = new URL(page.url()).pathname.split("/")[2];
  const created = await page.request.post(`/api/projects/${projectId}/sessions`, {
    data: {},
    headers: { origin: E2E_APP_URL },
  });
  expect(created.status()).toBe(201);
  const sessionId = ((await created.json()) as { session: { id: string } }).session.id;

  await page.goto("/settings");
  const tokens = page.getByRole("region", { name: "Access tokens" });
  await tokens.getByLabel("Token name").fill("cli");
  await tokens.getByRole("button", { name: "Create token" }).click();
  const token = await page
    .getByRole("region", { name: "New token cli" })
    .getByRole("textbox", { name: "New personal access token" })
    .inputValue();
  expect(token).toMatch(/^strata_/);

  const exported = await strata(["--server", E2E_APP_URL, "--token", token, "session", "export", sessionId]);
  expect(exported.stderr).toBe("");
  expect(exported.code).toBe(0);
  const header = JSON.parse(exported.stdout.split("\n")[0]) as { type: string; id: string; cwd: string };
  expect(header).toMatchObject({ type: "session", id: sessionId, cwd: `/${name}` });

  const preview = await strata([
    "preview",
    "--session-id",
    sessionId,
    "--text",
    "hello",
    "--server",
    E2E_APP_URL,
    "--token",
    token,
  ]);
  expect(preview.code).toBe(0);
  const context = JSON.parse(preview.stdout) as {
    systemPrompt: string;
    payload: { body: { messages: { role: string; content: unknown }[] } };
  };
  expect(context.systemPrompt).toContain("Answer briefly.");
  expect(context.payload.body.messages.at(-1)?.role).toBe("user");
  expect(JSON.stringify(context.payload.body.messages.at(-1)?.content)).toContain("hello");

  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "strata-cli-")), "s.jsonl");
  fs.writeFileSync(file, exported.stdout);
  const imported = await strata([
    "session",
    "import",
    file,
    "--project",
    projectId,
    "--server",
    E2E_APP_URL,
    "--token",
    token,
  ]);
  expect(imported.code).toBe(0);
  expect(imported.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);
  expect(imported.stderr).toContain(`Imported ${file} as session ${imported.stdout.trim()}`);

  const row = tokens.getByRole("row", { name: /cli/ });
  await page
    .getByRole("region", { name: "New token cli" })
    .getByRole("button", { name: "I have copied it" })
    .click();
  await row.getByRole("button", { name: "Revoke token cli" }).click();
  await row.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(tokens.getByRole("status")).toHaveText("Token “cli” revoked; it no longer works.");

  const refused = await strata(["--server", E2E_APP_URL, "--token", token, "session", "export", sessionId]);
  expect(refused.code).toBe(1);
  expect(refused.stdout).toBe("");
  expect(refused.stderr).toBe(
    `strata: ${E2E_APP_URL} answered 401 token_invalid: The personal access token is invalid, revoked or expired. Create a new one in Settings → Access tokens.\n`,
  );
});
