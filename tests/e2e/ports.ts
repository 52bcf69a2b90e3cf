/** Fixed loopback ports of the e2e stack (app, mock provider, git server). */
export const E2E_APP_PORT = Number(process.env.STRATA_E2E_APP_PORT ?? 3107);
export const E2E_MOCK_PORT = Number(process.env.STRATA_E2E_MOCK_PORT ?? 4117);
export const E2E_GIT_PORT = Number(process.env.STRATA_E2E_GIT_PORT ?? 4118);
export const E2E_APP_URL = `http://127.0.0.1:${E2E_APP_PORT}`;
export const E2E_MOCK_URL = `http://127.0.0.1:${E2E_MOCK_PORT}`;
export const E2E_GIT_URL = `http://127.0.0.1:${E2E_GIT_PORT}`;
