/**
 * Per-file setup, in the worker that runs the file: this worker's database and execution service (made by
 * tests/global-setup.ts, one per worker of the pool, chosen by `VITEST_POOL_ID`), and Node 20's missing global
 * WebSocket (the `ws` package) for the Neon driver.
 */
import { inject } from "vitest";
import ws from "ws";
import { setNodeWebSocket } from "@/lib/db/client";

setNodeWebSocket(ws);

const workers = inject("strataWorkers");
const poolId = Number(process.env.VITEST_POOL_ID ?? 1);
const mine = workers[(poolId - 1) % workers.length];
if (!mine) throw new Error(`tests/global-setup.ts made no resources for worker ${poolId}`);
Object.assign(process.env, mine);

// Better Auth signs cookies with this (a test-only value; `npm start` creates a random one in .strata/).
process.env.BETTER_AUTH_SECRET ??= "strata-test-only-secret-0123456789abcdef";
process.env.STRATA_AUTH_RATE_LIMIT ??= "off";
// Workspace secrets (lib/secrets) are encrypted with this test-only key (base64 of 32 bytes).
process.env.STRATA_SECRETS_KEY ??= "c3RyYXRhLXRlc3Qtb25seS1zZWNyZXRzLWtleS0wMDA=";
