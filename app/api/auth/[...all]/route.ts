import ws from "ws";
import { createAuth, settleAuth } from "@/lib/auth/server";
import { setNodeWebSocket, withDb } from "@/lib/db/client";
import { route } from "@/lib/http/errors";

// nodejs, not edge: password hashing then uses node:crypto's scrypt (tens of ms, off the event loop) instead of the
// pure-JS scrypt the edge runtime gets (hundreds of ms of CPU on the event loop; docs/auth.md). Node 20 has no
// global WebSocket, so the Neon driver gets `ws` here.
export const runtime = "nodejs";
setNodeWebSocket(ws);
export const dynamic = "force-dynamic";

/**
 * The origin the browser sees: the scheme served plus the `Host` header (vetted by proxy.ts's host allow-list and
 * Origin check). Not `request.url`'s origin: under `next start` that names Next's own bind (`localhost`), so Better
 * Auth's origin check refused every signed-in browser POST ("Invalid origin").
 */
const originOf = (request: Request) => {
  const url = new URL(request.url);
  return `${url.protocol}//${request.headers.get("host") ?? url.host}`;
};

/** A 429 of Better Auth (it sends only `X-Retry-After`) with the standard `Retry-After` too. */
function withRetryAfter(response: Response): Response {
  const seconds = response.headers.get("x-retry-after");
  if (response.status !== 429 || !seconds || response.headers.has("retry-after")) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", seconds);
  return new Response(response.body, { status: 429, statusText: response.statusText, headers });
}

/**
 * Better Auth's remove-member answers a signed-in member whose role may not remove members 401 (the plugin throws
 * `YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER` as UNAUTHORIZED, and an after hook cannot change the status); the
 * caller is known, so it is a 403, as every other refusal of a role.
 */
async function removeMemberForbidden(request: Request, response: Response): Promise<Response> {
  if (response.status !== 401 || !new URL(request.url).pathname.endsWith("/organization/remove-member"))
    return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: string } | null;
  if (body?.code !== "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER") return response;
  return new Response(response.body, { status: 403, statusText: "Forbidden", headers: response.headers });
}

/** Better Auth's routes (sign-up, sign-in, sign-out, sessions, password, organizations, invitations, API keys). */
const handle = route(async (request: Request) =>
  withRetryAfter(
    await withDb((scope) =>
      scope.run(async (db) => {
        const auth = createAuth(db, originOf(request));
        const response = await auth.handler(request);
        await settleAuth(auth);
        return removeMemberForbidden(request, response);
      }),
    ),
  ),
);

export const GET = handle;
export const POST = handle;
