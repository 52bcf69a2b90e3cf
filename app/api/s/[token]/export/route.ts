import { z } from "zod";
import { DbScope } from "@/lib/db/client";
import { badRequest, route } from "@/lib/http/errors";
import { shareNotFound } from "@/lib/http/share";
import { attachment, withSharePageHeaders } from "@/lib/http/share-pages";
import { EXPORT_FORMATS, shareExport } from "@/lib/share/render/export";
import { findLiveShare, readSharedFiles } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Query = z.object({ format: z.enum(EXPORT_FORMATS).default("html") });

/**
 * A share as a download, public: `?format=html` (default) → the offline HTML file (no script, the shared files'
 * text inline), `?format=jsonl` → the snapshot as a pi session file; `attachment` named from the share's title.
 * 400 for another format; the public share routes' JSON 404 for an unknown, revoked or expired token.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const query = Query.safeParse({ format: new URL(request.url).searchParams.get("format") ?? undefined });
  if (!query.success) throw badRequest("format must be html or jsonl");
  const scope = new DbScope();
  try {
    const share = await findLiveShare(scope, token);
    if (!share) return withSharePageHeaders(shareNotFound());
    const format = query.data.format;
    const fileTexts =
      format === "html" && share.snapshot.files ? await readSharedFiles(scope, share.id) : undefined;
    return attachment(shareExport(share.snapshot, format, { fileTexts, exportedAt: share.createdAt }));
  } finally {
    await scope.release();
  }
});
