import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { SharePublishBody, shareOptions } from "@/lib/http/share";
import { buildSharePreview } from "@/lib/share/build";
import { ShareError } from "@/lib/share/errors";
import { listSharesForSession, publishShare } from "@/lib/share/store";

// Node-only: publishing recomputes the preview, whose redaction runs secretlint (lib/share/redact.ts). The GET
// shares this file, so it runs on Node too.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The session's live shares → `{ shares: ShareSummary[] }`, newest first (read access). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(request, id, "read", async ({ scope, session }) =>
    Response.json({ shares: await listSharesForSession(scope, session.id) }),
  );
});

/**
 * Publish a share: the preview's body plus `digest` (from the preview) and `expiresAt` (ISO, future, at most a year;
 * null or absent = no expiry) → 201 `{ share: ShareSummary }`. The preview is built again and must have the same
 * digest (409 `preview_stale` otherwise: what was previewed is what is published); 400 `redaction_blank` /
 * `redaction_too_short` for an owner string the preview refuses. Write access.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  return withSession(request, id, "write", async ({ scope, caller, session, project }) => {
    const body = input.parse(SharePublishBody);
    const options = shareOptions(body);
    const preview = await buildSharePreview(scope, session, options, { userId: caller.userId });
    if (preview.digest !== body.digest)
      throw new ShareError(
        409,
        "preview_stale",
        "The share would differ from the preview you approved (the session, its files or the options changed); preview it again",
      );
    const share = await publishShare(scope, {
      session,
      project,
      userId: caller.userId,
      preview,
      options,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
    });
    return Response.json({ share }, { status: 201 });
  });
});
