/** Fixed loopback ports of the e2e stack (app, mock provider, git server), and its test-only secrets. */
export const E2E_APP_PORT = Number(process.env.STRATA_E2E_APP_PORT ?? 3107);
export const E2E_MOCK_PORT = Number(process.env.STRATA_E2E_MOCK_PORT ?? 4117);
export const E2E_GIT_PORT = Number(process.env.STRATA_E2E_GIT_PORT ?? 4118);
export const E2E_APP_URL = `http://127.0.0.1:${E2E_APP_PORT}`;
export const E2E_MOCK_URL = `http://127.0.0.1:${E2E_MOCK_PORT}`;
export const E2E_GIT_URL = `http://127.0.0.1:${E2E_GIT_PORT}`;
/** The e2e app's STRATA_SECRETS_KEY (32 bytes, base64; a test-only value). */
export const E2E_SECRETS_KEY = Buffer.from("strata-e2e-only-secrets-key-0123").toString("base64");
/**
 * The sign-in environment of an e2e app server: local mode on loopback (as `npm start` on its embedded default), with
 * test-only secrets.
 */
export const E2E_AUTH_ENV = {
  STRATA_AUTH_MODE: "local",
  HOST: "127.0.0.1",
  BETTER_AUTH_SECRET: "strata-e2e-only-secret-0123456789abcdef",
  STRATA_SECRETS_KEY: E2E_SECRETS_KEY,
} as const;
/**
 * A provider key in the server environment that configures nothing (OPENAI_COMPATIBLE_API_KEY without a base URL):
 * a recognisable test value that secrets-leak.spec.ts greps every page, API answer, stream, export, build asset and
 * server log line for (it must never appear). The server has no other provider key: tests/e2e/fixtures.ts.
 */
export const E2E_SERVER_DECOY_KEY = "sk-LEAKTEST-server-env-decoy-5f2c81";
/** The app server's stdout and stderr, copied here by tests/e2e/server.ts (secrets-leak.spec.ts reads it). */
export const E2E_SERVER_LOG = `${process.env.TMPDIR ?? "/tmp"}/strata-e2e-server-${E2E_APP_PORT}.log`;
/** Where the global setup saves the local owner's signed-in browser state (per app port: stacks may run side by side). */
export const E2E_STORAGE_STATE = `${process.env.TMPDIR ?? "/tmp"}/strata-e2e-state-${E2E_APP_PORT}.json`;
