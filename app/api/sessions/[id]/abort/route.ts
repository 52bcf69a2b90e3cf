import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { route } from "@/lib/http/errors";
import { cancelQueued } from "@/lib/session/queue";
import { requestAbort } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Ask the session's running agent (on any server instance) to abort, and hand back the steer and follow-up
 * texts queued for it that it never delivered: `{ aborted, undelivered: string[] }` (oldest first).
 */
export const POST = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!isUuid(id)) return Response.json({ aborted: false, undelivered: [] });
  const scope = new DbScope();
  try {
    const aborted = await requestAbort(scope, id);
    const undelivered = await cancelQueued(scope, id);
    return Response.json({ aborted, undelivered });
  } finally {
    await scope.release();
  }
});
