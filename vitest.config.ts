import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files run in this many worker processes at once (`STRATA_VITEST_WORKERS`, default 2: measured fastest on
 * the 2-core CI machine, see AGENTS.md "Tests"). Each worker has its own database and execution service
 * (tests/global-setup.ts).
 */
const WORKERS = Number(process.env.STRATA_VITEST_WORKERS ?? 2);

export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL(".", import.meta.url)).replace(/\/$/, "") },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/property/**/*.test.ts"],
    globalSetup: ["tests/global-setup.ts"],
    setupFiles: ["tests/setup-env.ts"],
    pool: "forks",
    maxWorkers: WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
