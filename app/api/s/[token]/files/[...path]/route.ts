import { DbScope } from "@/lib/db/client";
import { route } from "@/lib/http/errors";
import { shareNotFound, sharePublic } from "@/lib/http/share";
import { findLiveShare, readSharedFile } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * One shared file's redacted text, public → `text/plain; charset=utf-8` (`nosniff`, `inline`). 404 (the share's one
 * JSON 404) for a path the share does not hold and for an unknown, revoked or expired token.
 */
export const GET = route(
  async (_request: Request, { params }: { params: Promise<{ token: string; path: string[] }> }) => {
    const { token, path } = await params;
    const scope = new DbScope();
    try {
      const share = await findLiveShare(scope, token);
      if (!share) return shareNotFound();
      const file = await readSharedFile(scope, share.id, path.map(decodeSegment).join("/"));
      if (!file) return shareNotFound();
      return sharePublic(
        new Response(file.text, {
          headers: {
            "content-type": "text/plain; charset=utf-8",
            "x-content-type-options": "nosniff",
            "content-disposition": "inline",
          },
        }),
      );
    } finally {
      await scope.release();
    }
  },
);

/** A path segment as the file name (Next.js may hand a segment still percent-encoded). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
