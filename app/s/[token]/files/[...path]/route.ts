import { DbScope } from "@/lib/db/client";
import { route } from "@/lib/http/errors";
import { htmlPage, unavailablePage } from "@/lib/http/share-pages";
import { renderShareFilePage } from "@/lib/share/render/document";
import { findLiveShare, readSharedFile } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** A path segment as the file name (Next.js may hand a segment still percent-encoded). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * One shared file's page, public → `text/html`: the file read-only, highlighted, with line numbers. The same 404
 * page as the share's for a path the share does not hold (omitted files included) and for an unknown, revoked or
 * expired token.
 */
export const GET = route(
  async (_request: Request, { params }: { params: Promise<{ token: string; path: string[] }> }) => {
    const { token, path } = await params;
    const scope = new DbScope();
    try {
      const share = await findLiveShare(scope, token);
      if (!share) return unavailablePage();
      const filePath = path.map(decodeSegment).join("/");
      const file = await readSharedFile(scope, share.id, filePath);
      if (!file) return unavailablePage();
      const redacted = share.snapshot.files?.find((f) => f.path === filePath)?.redacted;
      const info = { path: filePath, ...file, redacted };
      return htmlPage(renderShareFilePage(share.snapshot, info, file.text, share.token));
    } finally {
      await scope.release();
    }
  },
);
