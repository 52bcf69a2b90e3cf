/**
 * The e2e stack, started by Playwright's webServer: a fresh database on the real local Postgres (behind
 * the app's WebSocket proxy), the mock LLM provider, a loopback smart-HTTP git server serving Strata's
 * own repository, the execution service (lib/exec/service) on that database, and the built app (`next start`)
 * pointed at all of them. Ctrl-C / SIGTERM tears it down.
 *
 * The app has the providers' base URLs (the mock) but **no provider key**: a workspace without keys is the
 * no-model state, and each test gives its own workspaces keys that name its mock scope (tests/e2e/fixtures.ts), so
 * tests running side by side never share a script or a request log. The server environment still holds secrets
 * that must never leak (`E2E_SERVER_DECOY_KEY`, the auth and secrets keys): secrets-leak.spec.ts searches for them.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startExecService } from "../../scripts/exec-service.mjs";
import { makeBareClone, startGitServer } from "../git-server";
import { createTestDatabase } from "../helpers/postgres";
import { startMockProvider } from "../mock-provider";
import {
  E2E_APP_PORT,
  E2E_AUTH_ENV,
  E2E_GIT_PORT,
  E2E_MOCK_PORT,
  E2E_SERVER_DECOY_KEY,
  E2E_SERVER_LOG,
} from "./ports";

const root = path.resolve(import.meta.dirname, "../..");

async function main() {
  const database = await createTestDatabase("strata_e2e");
  const mock = await startMockProvider({ port: E2E_MOCK_PORT });
  const bare = await makeBareClone(root);
  const git = await startGitServer({ repos: { strata: bare }, port: E2E_GIT_PORT });
  const exec = await startExecService({
    env: { ...process.env, DATABASE_URL: database.url, STRATA_DB_PROXY: database.proxy },
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: database.url,
    STRATA_DB_PROXY: database.proxy,
    ANTHROPIC_BASE_URL: `${mock.url}/v1`,
    OPENAI_BASE_URL: `${mock.url}/v1`,
    // A key that configures nothing (the OpenAI-compatible provider needs a base URL), kept only to be searched for.
    OPENAI_COMPATIBLE_API_KEY: E2E_SERVER_DECOY_KEY,
    STRATA_DEFAULT_MODEL: "anthropic/claude-sonnet-4-5",
    // A model without image input (image-attachment.spec.ts): pi's placeholder text replaces the images.
    STRATA_MODELS: JSON.stringify([
      { provider: "anthropic", id: "claude-text-only", name: "Claude (text only)", input: ["text"] },
      // A non-vision OpenAI model (context-inspector.spec.ts: an Anthropic history with images switched to it).
      { provider: "openai", id: "gpt-text-only", name: "GPT (text only)", input: ["text"] },
    ]),
    // Signed in as `npm start` signs in on its embedded default: local mode on a loopback bind (the global setup,
    // tests/e2e/global-setup.ts, takes the local owner's cookie for every spec).
    ...E2E_AUTH_ENV,
    // Every test signs up its own accounts (tests/e2e/fixtures.ts): far more than the default 100 sign-ups an hour.
    STRATA_SIGNUP_RATE_LIMIT: "100000",
    // The e2e git server is on loopback, which a git import refuses by default (lib/net/git-http.ts).
    STRATA_GIT_IMPORT_ALLOW_PRIVATE: "1",
    // Shell commands run in the execution service, as under `npm start`.
    ...exec.env,
  };
  const next = spawn(
    process.execPath,
    [
      path.join(root, "node_modules/next/dist/bin/next"),
      process.env.STRATA_E2E_DEV ? "dev" : "start",
      "-p",
      String(E2E_APP_PORT),
      "-H",
      "127.0.0.1",
      // Idle keep-alive sockets stay open longer than any test: a request sent on a socket the server was closing at
      // that moment (its default 5 s idle timeout) failed with ECONNRESET under load.
      ...(process.env.STRATA_E2E_DEV ? [] : ["--keepAliveTimeout", "120000"]),
    ],
    {
      cwd: root,
      env,
      stdio: ["inherit", "pipe", "pipe"],
    },
  );
  // The app's output, shown as before and copied to E2E_SERVER_LOG (secrets-leak.spec.ts greps it for keys).
  const log = fs.createWriteStream(E2E_SERVER_LOG, { flags: "w" });
  next.stdout?.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    log.write(chunk);
  });
  next.stderr?.on("data", (chunk: Buffer) => {
    process.stderr.write(chunk);
    log.write(chunk);
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    next.kill("SIGTERM");
    await exec.close();
    await git.close();
    await mock.close();
    await database.close();
    fs.rmSync(bare, { recursive: true, force: true });
    process.exit(0);
  };
  next.on("exit", stop);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
