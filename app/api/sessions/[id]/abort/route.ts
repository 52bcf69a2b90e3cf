import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { cancelQueued } from "@/lib/session/queue";
import { requestAbort } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Ask the session's running agent (on any server instance) to abort, and hand back the steer and follow-up
 * texts queued for it that it never delivered: `{ aborted, undelivered: string[] }` (oldest first).
 */
export const POST = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "write", async ({ scope, session }) => {
    const aborted = await requestAbort(scope, session.id);
    const undelivered = await cancelQueued(scope, session.id);
    return Response.json({ aborted, undelivered });
  });
});
