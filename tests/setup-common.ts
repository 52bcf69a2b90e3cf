/**
 * Setup of every test file (unit and integration): Node 20's missing global WebSocket (the `ws` package) for the
 * Neon driver, and the test-only secrets the server reads from its environment.
 */
import ws from "ws";
import { setNodeWebSocket } from "@/lib/db/client";

setNodeWebSocket(ws);

// Better Auth signs cookies with this (a test-only value; `npm start` creates a random one in .strata/).
process.env.BETTER_AUTH_SECRET ??= "strata-test-only-secret-0123456789abcdef";
process.env.STRATA_AUTH_RATE_LIMIT ??= "off";
// Workspace secrets (lib/secrets) are encrypted with this test-only key (base64 of 32 bytes).
process.env.STRATA_SECRETS_KEY ??= "c3RyYXRhLXRlc3Qtb25seS1zZWNyZXRzLWtleS0wMDA=";
