/**
 * What the account settings page needs on the server, for its first render: whether the account has a password
 * (a `credential` row with a hash; the local owner has none) and the id of this browser's session (marked "This
 * device" in the sessions list).
 */
import { createAuth } from "@/lib/auth/server";
import type { DbScope } from "@/lib/db/client";

/** Whether user `userId` can sign in with a password. */
export async function hasPassword(scope: DbScope, userId: string): Promise<boolean> {
  const rows = await scope.query<{ one: number }>(
    "SELECT 1 AS one FROM auth_accounts WHERE user_id = $1 AND provider_id = 'credential' AND password IS NOT NULL LIMIT 1",
    [userId],
  );
  return rows.length > 0;
}

/** The id of the Better Auth session `request`'s cookie belongs to, or null. */
export async function currentSessionId(scope: DbScope, request: Request): Promise<string | null> {
  const session = await scope.run((db) =>
    createAuth(db, new URL(request.url).origin).api.getSession({ headers: request.headers }),
  );
  return session?.session.id ?? null;
}
