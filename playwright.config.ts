import { defineConfig } from "@playwright/test";
import { E2E_APP_URL, E2E_STORAGE_STATE } from "./tests/e2e/ports";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  // Every test is its own account with its own mock scope (tests/e2e/fixtures.ts): any two may run at once.
  fullyParallel: true,
  workers: Number(process.env.STRATA_E2E_WORKERS ?? 2),
  retries: 0,
  // Upper bounds for conditions, never waits: a passing test takes what it takes. They hold with two workers on a
  // loaded 2-core machine (a GET answered 15 s late was seen there under four parallel jobs).
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  // Every spec starts signed in as the local owner (tests/e2e/global-setup.ts).
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL: E2E_APP_URL,
    storageState: E2E_STORAGE_STATE,
    // A trace records every action's snapshots for every test, failing or not: a third of Chromium's CPU on this
    // machine. Off by default; STRATA_E2E_TRACE=1 keeps the trace of each failed test (AGENTS.md, "Tests").
    trace: process.env.STRATA_E2E_TRACE ? "retain-on-failure" : "off",
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
