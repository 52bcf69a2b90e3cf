import { APIError } from "better-auth/api";
import ws from "ws";
import { z } from "zod";
import { createAuth } from "@/lib/auth/server";
import { setNodeWebSocket } from "@/lib/db/client";
import { withCaller } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, route } from "@/lib/http/errors";

// nodejs like /api/auth: the new password is hashed with node:crypto's scrypt (docs/auth.md).
export const runtime = "nodejs";
setNodeWebSocket(ws);
export const dynamic = "force-dynamic";

/** The origin the browser sees (scheme + vetted `Host`), as app/api/auth/[...all] gives Better Auth. */
const originOf = (request: Request) => {
  const url = new URL(request.url);
  return `${url.protocol}//${request.headers.get("host") ?? url.host}`;
};

const Body = z.object({ newPassword: z.string().max(1000) }).strict();

/**
 * Set a first password for the signed-in browser's account (the local owner has none): Better Auth's server-only
 * `setPassword`. Body `{ newPassword }` → 200 `{ passwordSet: true }`. 400 `PASSWORD_TOO_SHORT` / `PASSWORD_TOO_LONG`,
 * 400 `PASSWORD_ALREADY_SET` (use POST /api/auth/change-password), 403 `browser_only` for a token caller, 401 signed out.
 */
export const POST = route(async (request: Request) => {
  const { newPassword } = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
  return withCaller(request, async ({ scope, caller }) => {
    if (caller.via !== "cookie")
      throw new ApiError(
        403,
        "browser_only",
        "Set a password in Settings in the browser, not with an access token.",
      );
    try {
      await scope.run((db) =>
        createAuth(db, originOf(request)).api.setPassword({
          body: { newPassword },
          headers: request.headers,
        }),
      );
    } catch (error) {
      if (error instanceof APIError) {
        const body = error.body as { code?: string; message?: string } | undefined;
        throw new ApiError(error.statusCode, body?.code ?? "bad_request", body?.message ?? error.message);
      }
      throw error;
    }
    return Response.json({ passwordSet: true });
  });
});
