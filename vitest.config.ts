import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files run in this many worker processes at once (`STRATA_VITEST_WORKERS`, default 2; measured on the 2-core
 * CI machine in AGENTS.md "Tests"). Each worker of the integration project has its own database and execution
 * service (tests/global-setup.ts).
 */
const WORKERS = Number(process.env.STRATA_VITEST_WORKERS ?? 2);

const INTEGRATION = ["tests/integration", "tests/property"];

/**
 * The integration test files that mock a module (`vi.mock`/`vi.doMock`): a mock applies only to a module not
 * loaded yet, so these run each in a fresh module registry (project `integration-mocked`).
 */
function filesMockingModules(): string[] {
  const root = path.dirname(fileURLToPath(import.meta.url));
  return INTEGRATION.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => `${dir}/${file}`)
      .filter((file) => /\bvi\.(doMock|mock)\(/.test(readFileSync(path.join(root, file), "utf8"))),
  );
}
const MOCKED = filesMockingModules();

/**
 * The old import paths of modules that moved to another `lib/` folder, from tsconfig.json's `paths` (the one map;
 * Next and tsc read it too): `@/lib/agent/session-run` → `lib/agent-session/session-run.ts`. Exact matches only.
 */
function movedModuleAliases(): { find: RegExp; replacement: string }[] {
  const root = path.dirname(fileURLToPath(import.meta.url));
  const tsconfig = JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8")) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.entries(tsconfig.compilerOptions.paths)
    .filter(([from]) => !from.includes("*"))
    .map(([from, [to]]) => ({
      find: new RegExp(`^${from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`),
      replacement: path.join(root, to),
    }));
}

/**
 * Two projects:
 * - `unit` (tests/unit): no database, no service; the files of a worker share one module registry (`isolate: false`:
 *   a file's imports are loaded once per worker instead of once per file, 50 s → 20 s). A unit test that changes
 *   module state (a cache, an env-derived setting) puts it back, as it would for the next test of its own file.
 * - `integration` (tests/integration, tests/property): real Postgres, the execution service, the mock provider. The
 *   files of a worker share one module registry too (`isolate: false`): a fresh registry per file cost 3–5 s of
 *   imports each (the route handlers pull in the AI SDK, Better Auth, Drizzle, isomorphic-git), ~190 s of the run.
 *   Module state a file changes goes back when it ends (environment variables through `setEnv`'s restore, the
 *   Neon driver's proxy is set per client, never globally); the one file that mocks a module (`vi.mock`) runs in
 *   `integration-mocked`, each file in its own registry.
 */
export default defineConfig({
  resolve: {
    // The moved modules' old paths first (tsconfig.json `paths`, docs/architecture.md "Layers"), then `@/`.
    alias: [
      ...movedModuleAliases(),
      { find: "@", replacement: fileURLToPath(new URL(".", import.meta.url)).replace(/\/$/, "") },
    ],
  },
  test: {
    pool: "forks",
    maxWorkers: WORKERS,
    // Hang detectors, never measures (timings: `npm run bench`). With the machine loaded by a benchmark and two app
    // builds beside the suite (load average 12 on 2 cores), a prompt whose turns run two commands in the execution
    // service took over 30 s; a bound a slow machine reaches makes a false failure (and the timed-out test's run,
    // still going, then takes the next test's scripted turn).
    testTimeout: 120_000,
    hookTimeout: 120_000,
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
          include: INTEGRATION.map((dir) => `${dir}/**/*.test.ts`),
          exclude: MOCKED,
          globalSetup: ["tests/global-setup.ts"],
          setupFiles: ["tests/setup-common.ts", "tests/setup-env.ts"],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "integration-mocked",
          include: MOCKED,
          globalSetup: ["tests/global-setup.ts"],
          setupFiles: ["tests/setup-common.ts", "tests/setup-env.ts"],
        },
      },
    ],
  },
});
