import ws from "ws";
import { createAuth } from "@/lib/auth/server";
import { setNodeWebSocket, withDb } from "@/lib/db/client";
import { route } from "@/lib/http/errors";

// nodejs, not edge: password hashing then uses node:crypto's scrypt (tens of ms, off the event loop) instead of the
// pure-JS scrypt the edge runtime gets (hundreds of ms of CPU on the event loop; docs/auth.md). Node 20 has no
// global WebSocket, so the Neon driver gets `ws` here.
export const runtime = "nodejs";
setNodeWebSocket(ws);
export const dynamic = "force-dynamic";

/** Better Auth's routes (sign-up, sign-in, sign-out, sessions, password, organizations, invitations, API keys). */
const handle = route(async (request: Request) =>
  withDb((scope) => scope.run((db) => createAuth(db, new URL(request.url).origin).handler(request))),
);

export const GET = handle;
export const POST = handle;
