import { DbScope } from "@/lib/db/client";
import { route } from "@/lib/http/errors";
import { htmlPage, unavailablePage } from "@/lib/http/share-pages";
import { renderShareDocument } from "@/lib/share/render/document";
import { findLiveShare } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The share page, public (the token is the capability; no sign-in) → `text/html`: the shared branch rendered without
 * any script (docs/sharing.md), with download links and the fork form. 404 HTML "This share link is not available"
 * for an unknown, revoked or expired token. Never cached, never indexed, no referrer.
 */
export const GET = route(async (_request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const scope = new DbScope();
  try {
    const share = await findLiveShare(scope, token);
    if (!share) return unavailablePage();
    return htmlPage(
      renderShareDocument(share.snapshot, {
        mode: "page",
        token: share.token,
        createdAt: share.createdAt,
        expiresAt: share.expiresAt,
      }),
    );
  } finally {
    await scope.release();
  }
});
