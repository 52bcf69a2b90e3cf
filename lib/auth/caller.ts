/**
 * Who is calling: the signed-in browser (Better Auth's session cookie) or a personal access token
 * (`Authorization: Bearer strata_…`, verified by the API-key plugin, which counts it against the token's rate limit).
 */
import { sql } from "drizzle-orm";
import type { DbScope } from "@/lib/db/client";
import { AuthError, unauthenticated } from "./errors";
import { createAuth, settleAuth } from "./server";

export interface Caller {
  userId: string;
  email: string;
  name: string;
  /** How the caller proved who they are. */
  via: "cookie" | "token";
}

/** The bearer token of `request`, or null (a malformed `Authorization` header counts as none). */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : null;
}

/**
 * The caller of `request`, or null when it carries no valid cookie or token.
 * @throws AuthError 401 `token_invalid` for a bearer token that is unknown, revoked, disabled or expired, and 429
 *   `rate_limited` for one over its rate limit (so a CLI user learns why, rather than a bare 401).
 */
export async function resolveCaller(scope: DbScope, request: Request): Promise<Caller | null> {
  const origin = new URL(request.url).origin;
  const token = bearerToken(request);
  return scope.run(async (db) => {
    const auth = createAuth(db, origin);
    if (token) {
      const result = await auth.api.verifyApiKey({ body: { key: token } });
      await settleAuth(auth);
      if (!result.valid || !result.key) {
        const code = result.error?.code;
        if (code === "RATE_LIMITED" || code === "RATE_LIMIT_EXCEEDED")
          throw new AuthError(
            429,
            "rate_limited",
            "This token is over its rate limit; try again in a minute.",
            60,
          );
        throw new AuthError(
          401,
          "token_invalid",
          "The personal access token is invalid, revoked or expired. Create a new one in Settings → Access tokens.",
        );
      }
      const rows = await db.execute<{ id: string; email: string; name: string }>(
        sql`SELECT id, email, name FROM users WHERE id = ${result.key.referenceId}`,
      );
      const user = rows.rows[0];
      return user ? { userId: user.id, email: user.email, name: user.name, via: "token" as const } : null;
    }
    if (!request.headers.get("cookie")) return null;
    const session = await auth.api.getSession({ headers: request.headers });
    if (!session) return null;
    return {
      userId: session.user.id,
      email: session.user.email,
      name: session.user.name,
      via: "cookie" as const,
    };
  });
}

/** The caller of `request`. @throws AuthError 401 when there is none (and whatever {@link resolveCaller} throws). */
export async function requireCaller(scope: DbScope, request: Request): Promise<Caller> {
  const caller = await resolveCaller(scope, request);
  if (!caller) throw unauthenticated();
  return caller;
}
