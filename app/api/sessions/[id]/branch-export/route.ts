import { z } from "zod";
import { withSession } from "@/lib/http/access";
import { badRequest, route } from "@/lib/http/errors";
import { attachment } from "@/lib/http/share-pages";
import { buildSharePreview } from "@/lib/share/build";
import { EXPORT_FORMATS, shareExport } from "@/lib/share/render/export";

// buildSharePreview redacts with secretlint, which needs Node.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const Query = z.object({
  leaf: z.string().min(1).max(200).optional(),
  format: z.enum(EXPORT_FORMATS).default("html"),
});

/**
 * The owner's export of one branch (not a share; nothing is stored): `?leaf=<entryId>` (default: the session's
 * current leaf) `&format=html|jsonl` (default html) → an attachment named from the session's title, redacted exactly
 * as a share would be (secretlint + Strata's patterns; no files, no system prompt). Read access to the session.
 * 400 for a bad query or a session without entries; 404 for a leaf that is not an entry of the session.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(request, id, "read", async ({ scope, session }) => {
    const search = new URL(request.url).searchParams;
    const query = Query.safeParse({
      leaf: search.get("leaf") ?? undefined,
      format: search.get("format") ?? undefined,
    });
    if (!query.success) throw badRequest("leaf must be an entry id and format html or jsonl");
    const leafId = query.data.leaf ?? session.leafId;
    if (!leafId) throw badRequest("The session has no entries to export");
    const preview = await buildSharePreview(scope, session, {
      leafId,
      includeFiles: false,
      includeSystem: false,
      redact: [],
    });
    return attachment(
      shareExport(preview.snapshot, query.data.format, { exportedAt: new Date().toISOString() }),
    );
  });
});
