import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { SharePreviewBody, shareOptions } from "@/lib/http/share";
import { buildSharePreview } from "@/lib/share/build";

// Node-only: the redaction runs secretlint (lib/share/redact.ts).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Preview sharing the session's root→leaf path: `{ leafId, includeFiles?, includeSystem?, redact?: string[] }` →
 * `{ preview: SharePreview }` (the redacted snapshot, the files' redacted texts, every redaction with its site and
 * rule, and the `digest` publishing must echo). Changes nothing; write access (only who may share may preview).
 * 404 `entry_not_found`, 422 `empty_path`, 400 `redaction_blank` / `redaction_too_short` (an owner string, named by
 * its position).
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  return withSession(request, id, "write", async ({ scope, caller, session }) => {
    const body = input.parse(SharePreviewBody);
    return Response.json({
      preview: await buildSharePreview(scope, session, shareOptions(body), { userId: caller.userId }),
    });
  });
});
