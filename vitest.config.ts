import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files run in this many worker processes at once (`STRATA_VITEST_WORKERS`, default 2; measured on the 2-core
 * CI machine in AGENTS.md "Tests"). Each worker of the integration project has its own database and execution
 * service (tests/global-setup.ts).
 */
const WORKERS = Number(process.env.STRATA_VITEST_WORKERS ?? 2);

/**
 * Two projects:
 * - `unit` (tests/unit): no database, no service; the files of a worker share one module registry (`isolate: false`:
 *   a file's imports are loaded once per worker instead of once per file, 50 s → 20 s). A unit test that changes
 *   module state (a cache, an env-derived setting) puts it back, as it would for the next test of its own file.
 * - `integration` (tests/integration, tests/property): real Postgres, the execution service, the mock provider; each
 *   file in a fresh module registry.
 */
export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL(".", import.meta.url)).replace(/\/$/, "") },
  },
  test: {
    pool: "forks",
    maxWorkers: WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          setupFiles: ["tests/setup-common.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "tests/property/**/*.test.ts"],
          globalSetup: ["tests/global-setup.ts"],
          setupFiles: ["tests/setup-common.ts", "tests/setup-env.ts"],
        },
      },
    ],
  },
});
