/**
 * The mock provider, a database scope and a provider environment for one integration test file, in one call
 * ({@link withMockStack}) instead of the same `beforeAll`/`afterAll`/`beforeEach` in every file.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import { DbScope } from "@/lib/db/client";
import { PROVIDER_ENV } from "@/lib/llm/provider-env";
import { type MockProvider, startMockProvider } from "../mock-provider";
import { setEnv } from "./env";

/** A provider whose wire format the mock speaks (tests/mock-provider/README.md): its requests reach `<mock>/v1`. */
export type MockStackProvider = "anthropic" | "openai" | "openai-compatible";

/** The default model (`STRATA_DEFAULT_MODEL`) when the providers include Anthropic. */
export const MOCK_STACK_MODEL = "anthropic/claude-sonnet-4-5";

/** Options of {@link withMockStack}; every one has the default most files want. */
export interface MockStackOptions {
  /**
   * The providers `env` points at the mock: each one's API key variable (`"k"`, the mock's default scope) and base
   * URL variable (`<mock>/v1`), named as in lib/llm/provider-env.ts (e.g. `OPENAI_COMPATIBLE_BASE_URL`). Default
   * `"anthropic"`.
   */
  provider?: MockStackProvider | readonly MockStackProvider[];
  /**
   * `STRATA_DEFAULT_MODEL` in `env`: default {@link MOCK_STACK_MODEL} when the providers include Anthropic, else
   * unset; `null` leaves it unset.
   */
  model?: string | null;
  /** Open a {@link DbScope} for the file (released after its last test). Default `true`; `false`: `scope` throws. */
  scope?: boolean;
  /**
   * Reset the mock before each test, so no test sees another's scripted turns, recorded requests or opened gates.
   * Default `true`; `false` for a file that resets where it needs to (or whose tests build on each other's requests).
   */
  reset?: boolean;
  /**
   * Also put `env` in `process.env` from the file's first hook to its last (`setEnv`; what was there before comes
   * back): for code that reads the process's environment, such as route handlers. Default `false`: `env` is only
   * handed to what takes one (`runPrompt({ env })`).
   */
  processEnv?: boolean;
  /**
   * More variables, set after (so over) the providers' ones: a record, or a function of the mock's base URL (without
   * `/v1`), e.g. `STRATA_MODELS` or a real-looking API key.
   */
  extraEnv?: Record<string, string> | ((mockUrl: string) => Record<string, string>);
}

/** What {@link withMockStack} gives: each value exists from the file's `beforeAll` on, and throws when read earlier. */
export interface MockStack {
  /** The file's mock provider (reset before each test unless `reset: false`). */
  readonly mock: MockProvider;
  /** The file's database scope. @throws Error with `scope: false`. */
  readonly scope: DbScope;
  /** The environment pointing the providers at the mock (the same object on every read). */
  readonly env: Record<string, string>;
}

/** The environment pointing `providers` at the mock at `mockUrl` (see {@link MockStackOptions}). */
export function mockStackEnv(mockUrl: string, options: MockStackOptions = {}): Record<string, string> {
  const providers: readonly MockStackProvider[] =
    typeof options.provider === "string" ? [options.provider] : (options.provider ?? ["anthropic"]);
  const env: Record<string, string> = {};
  for (const provider of providers) {
    env[PROVIDER_ENV[provider].apiKey] = "k";
    env[PROVIDER_ENV[provider].baseURL] = `${mockUrl}/v1`;
  }
  const model =
    options.model === undefined ? (providers.includes("anthropic") ? MOCK_STACK_MODEL : null) : options.model;
  if (model !== null) env.STRATA_DEFAULT_MODEL = model;
  const extra = typeof options.extraEnv === "function" ? options.extraEnv(mockUrl) : options.extraEnv;
  return { ...env, ...extra };
}

/**
 * Registers beforeAll/afterAll/beforeEach hooks in the calling file: a mock provider (reset before each test, so no
 * test sees another's scripted turns or recorded requests), a {@link DbScope}, and an env pointing the given provider
 * at the mock (in `process.env` too with `processEnv: true`). Call it at the file's top level before the file's own
 * hooks: Vitest runs `beforeAll`/`beforeEach` hooks in the order registered and `afterAll` hooks in reverse
 * (`sequence.hooks: "stack"`), so the file's own hooks find the mock, scope and env set, and its `afterAll` runs
 * before the scope is released and the mock stopped. Teardown: `process.env` restored, scope released, mock closed.
 * Each call has its own mock and scope (the files of a Vitest worker share its module registry, `isolate: false`).
 *
 * @example
 * const stack = withMockStack();
 * it("answers", async () => {
 *   stack.mock.enqueue({ text: "Hi." });
 *   await runPrompt({ sessionId, text: "hi", env: stack.env, emit: async () => {} });
 * });
 */
export function withMockStack(options: MockStackOptions = {}): MockStack {
  const { scope: withScope = true, reset = true, processEnv = false } = options;
  let mock: MockProvider | undefined;
  let scope: DbScope | undefined;
  let env: Record<string, string> | undefined;
  let restoreEnv: (() => void) | undefined;

  const notYet = (name: string) =>
    new Error(
      `withMockStack: \`${name}\` read before the file's beforeAll ran (read it in a hook or a test, not at the file's top level)`,
    );

  beforeAll(async () => {
    mock = await startMockProvider();
    if (withScope) scope = new DbScope();
    env = mockStackEnv(mock.url, options);
    if (processEnv) restoreEnv = setEnv(env);
  });
  afterAll(async () => {
    restoreEnv?.();
    await scope?.release();
    await mock?.close();
  });
  if (reset) beforeEach(() => mock?.reset());

  return {
    get mock() {
      if (!mock) throw notYet("mock");
      return mock;
    },
    get scope() {
      if (!withScope)
        throw new Error(
          "withMockStack({ scope: false }): this file has no `scope`; open a DbScope of its own",
        );
      if (!scope) throw notYet("scope");
      return scope;
    },
    get env() {
      if (!env) throw notYet("env");
      return env;
    },
  };
}
