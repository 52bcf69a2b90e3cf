import { DbScope } from "@/lib/db/client";
import { route } from "@/lib/http/errors";
import { shareNotFound, sharePublic } from "@/lib/http/share";
import { findLiveShare } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * A share's data, public (the token is the capability; no sign-in) → `{ share: { title, createdAt, expiresAt,
 * includeFiles, includeSystem }, snapshot }`. 404 `{ error: "Share not found" }` for an unknown, revoked or expired
 * token. Never cached, never indexed, no referrer.
 */
export const GET = route(async (_request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const scope = new DbScope();
  try {
    const share = await findLiveShare(scope, token);
    if (!share) return shareNotFound();
    const { title, createdAt, expiresAt, includeFiles, includeSystem } = share;
    return sharePublic(
      Response.json({
        share: { title, createdAt, expiresAt, includeFiles, includeSystem },
        snapshot: share.snapshot,
      }),
    );
  } finally {
    await scope.release();
  }
});
