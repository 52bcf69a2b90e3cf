/** Recording who created a session (`sessions.user_id`): every session a route creates belongs to its caller. */
import type { DbScope } from "@/lib/db/client";
import type { SessionRow } from "@/lib/session/store";

/** Set `session`'s creator to `userId` (a fork copies its source's creator; the caller made the fork). */
export async function recordSessionUser(
  scope: DbScope,
  session: SessionRow,
  userId: string,
): Promise<SessionRow> {
  if (session.userId === userId) return session;
  await scope.query("UPDATE sessions SET user_id = $2 WHERE id = $1", [session.id, userId]);
  return { ...session, userId };
}
