/**
 * A Strata server without any model provider, end to end in Chromium: a second `next start` of the same build
 * on its own port and its own database (real Postgres behind the app's proxy), its environment without any
 * provider variable. The composer says at once that no model is configured and how to configure one, Send stays
 * disabled for prompts (the typed text stays), `!ls` still runs, and the typed text survives a reload.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createTestDatabase, type TestDatabase } from "../helpers/postgres";
import { composer, openZipProject, uniqueName } from "./helpers";
import { E2E_APP_PORT, E2E_AUTH_ENV } from "./ports";

const PORT = Number(process.env.STRATA_E2E_NOMODEL_PORT ?? E2E_APP_PORT + 3);
const URL = `http://127.0.0.1:${PORT}`;
const SHOTS = process.env.STRATA_E2E_SHOTS;
const root = path.resolve(import.meta.dirname, "../..");
/** Every variable that configures a model (README, "Configuration"): none reaches this server. */
const PROVIDER_VARIABLE =
  /^(ANTHROPIC_|OPENAI_|GOOGLE_GENERATIVE_AI_|MISTRAL_|STRATA_MODELS$|STRATA_DEFAULT_MODEL$)/;

let database: TestDatabase;
let server: ChildProcess;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createTestDatabase("strata_e2e_nomodel");
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !PROVIDER_VARIABLE.test(k)),
  ) as NodeJS.ProcessEnv;
  server = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(PORT), "-H", "127.0.0.1"],
    {
      cwd: root,
      env: {
        ...env,
        NEXT_TELEMETRY_DISABLED: "1",
        DATABASE_URL: database.url,
        STRATA_DB_PROXY: database.proxy,
        // Local mode, as the main e2e server: the page signs the browser in as the local owner.
        ...E2E_AUTH_ENV,
      },
      stdio: "inherit",
    },
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    // Up once it answers at all (/api/config answers 401 to a caller without a session).
    const ok = await fetch(`${URL}/api/config`).then(
      (r) => r.status === 200 || r.status === 401,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline || server.exitCode !== null)
      throw new Error(`no-model server did not start on ${URL}`);
    await new Promise((r) => setTimeout(r, 300));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  await database?.close();
});

test.use({ baseURL: URL });

const NOTE_TITLE = "No model is configured: prompts cannot be sent.";
const NOTE_TEXT =
  "Set ANTHROPIC_API_KEY, OPENAI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, MISTRAL_API_KEY or OPENAI_COMPATIBLE_BASE_URL " +
  "in .env.local (or the server's environment), then restart npm start. Shell !commands still run.";

test("no model: the composer says how to configure one, Send is disabled, !ls runs, the draft survives", async ({
  page,
}) => {
  // The first visit signs this server's local owner in (the storage state's cookie is the main e2e server's).
  await page.goto("/");
  const config = (await (await page.request.get("/api/config")).json()) as { configured: boolean };
  expect(config.configured).toBe(false);

  await expect(page.getByRole("status").filter({ hasText: "No model provider is configured" })).toContainText(
    "Set one of ANTHROPIC_API_KEY, OPENAI_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, MISTRAL_API_KEY or OPENAI_COMPATIBLE_BASE_URL in .env.local (or the server's environment), then restart npm start.",
  );

  await openZipProject(page, uniqueName("nomodel"), { "README.md": "# Demo\n" });
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
  if (SHOTS) await form.screenshot({ path: `${SHOTS}/no-model-composer.png` });

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
