/**
 * The fast-check parameters every property test of the suite passes to `fc.assert` (`propertyParameters()`):
 *
 * - Runs: {@link PROPERTY_RUNS} per property — `STRATA_PROPERTY_RUNS`, default {@link DEFAULT_PROPERTY_RUNS} (all
 *   property tests together stay under a minute on the 2-core machine). A property with a count of its own
 *   (`propertyParameters({ numRuns: 25 })`: dearer or cheaper per run) runs exactly that count by default and
 *   scales with `STRATA_PROPERTY_RUNS` (× STRATA_PROPERTY_RUNS / DEFAULT_PROPERTY_RUNS, at least 1).
 *   `npm run test:property:deep` sets `STRATA_PROPERTY_RUNS=10000`: the 10,000-run sweep.
 * - Seed: a fresh random one per `fc.assert`, or `STRATA_PROPERTY_SEED` when set. On a failure the error names
 *   the seed and the command that replays it (`STRATA_PROPERTY_SEED=<seed> npx vitest run <file>`), followed by
 *   fast-check's own report (seed, path, shrunk counterexample).
 */
import path from "node:path";
import fc from "fast-check";
import { expect } from "vitest";

/** Runs per property in the normal suite (measured: all property tests ≈ 15 s on the idle 2-core machine). */
export const DEFAULT_PROPERTY_RUNS = 1_000;

/**
 * A positive integer from the environment variable `name`, or undefined when it is unset or empty.
 * @throws Error naming the variable when it is set to anything else
 */
function integerFromEnv(name: string, { positive }: { positive: boolean }): number | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || (positive && value <= 0))
    throw new Error(`${name} must be ${positive ? "a positive integer" : "an integer"}, got '${raw}'`);
  return value;
}

/** Runs per property: `STRATA_PROPERTY_RUNS`, else {@link DEFAULT_PROPERTY_RUNS}. */
export const PROPERTY_RUNS =
  integerFromEnv("STRATA_PROPERTY_RUNS", { positive: true }) ?? DEFAULT_PROPERTY_RUNS;

/** The seed to replay (`STRATA_PROPERTY_SEED`), or undefined for a fresh seed per `fc.assert`. */
const FIXED_SEED = integerFromEnv("STRATA_PROPERTY_SEED", { positive: false });

/** The command that replays a failure of the current test file with `seed` (and the run count in effect). */
function replayCommand(seed: number): string {
  const testPath = expect.getState().testPath;
  const file = testPath ? path.relative(process.cwd(), testPath) : "<test file>";
  const runs = process.env.STRATA_PROPERTY_RUNS?.trim() ? `STRATA_PROPERTY_RUNS=${PROPERTY_RUNS} ` : "";
  return `${runs}STRATA_PROPERTY_SEED=${seed} npx vitest run ${file}`;
}

/**
 * Parameters for one `fc.assert`: `numRuns` ({@link PROPERTY_RUNS}, or `options.numRuns` scaled as the module
 * docstring says), `seed` (fresh, or `STRATA_PROPERTY_SEED`) and a reporter that fails with the replay command
 * before fast-check's report (the error's `cause` is the property's own error).
 * @param options.numRuns this property's run count in the normal suite, when it is not {@link PROPERTY_RUNS}
 * @returns fast-check `Parameters` for `fc.assert(property, propertyParameters())`
 */
export function propertyParameters<Ts>(options: { numRuns?: number } = {}): fc.Parameters<Ts> {
  const numRuns =
    options.numRuns === undefined
      ? PROPERTY_RUNS
      : Math.max(1, Math.round((options.numRuns * PROPERTY_RUNS) / DEFAULT_PROPERTY_RUNS));
  // fast-check's seeds are 32-bit integers; its own default is also random per run.
  const seed = FIXED_SEED ?? (Math.random() * 0x1_0000_0000) | 0;
  return {
    numRuns,
    seed,
    reporter: (details) => {
      if (!details.failed) return;
      throw new Error(
        `Property failed with seed ${seed} (${numRuns} runs). Replay: ${replayCommand(seed)}\n\n${fc.defaultReportMessage(details)}`,
        { cause: details.errorInstance },
      );
    },
  };
}
