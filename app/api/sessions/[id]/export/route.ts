import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { exportSessionFile } from "@/lib/session/import-export";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** `attachment` with an ASCII fallback name and the exact name as RFC 5987 `filename*`. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Download the session as a pi JSONL file. */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "read", async ({ scope, session }) => {
    const { fileName, text } = await exportSessionFile(scope, session.id);
    return new Response(text, {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": contentDisposition(fileName),
        "cache-control": "no-store",
      },
    });
  });
});
