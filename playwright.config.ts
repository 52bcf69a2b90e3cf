import { defineConfig } from "@playwright/test";
import { E2E_APP_URL, E2E_STORAGE_STATE } from "./tests/e2e/ports";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  // Every spec starts signed in as the local owner (tests/e2e/global-setup.ts).
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL: E2E_APP_URL,
    storageState: E2E_STORAGE_STATE,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // No test ever reaches an address off this machine (links in rendered content included).
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
      ],
    },
  },
  webServer: {
    command: "npx tsx tests/e2e/server.ts",
    url: `${E2E_APP_URL}/api/config`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
