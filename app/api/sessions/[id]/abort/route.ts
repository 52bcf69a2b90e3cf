import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { abortLocalRuns } from "@/lib/runs";
import { cancelQueued } from "@/lib/session/queue";
import { requestAbort } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Ask the session's running agent (on any server instance; at once when this instance owns it) to abort, and hand back the steer and follow-up
 * texts queued for it that it never delivered: `{ aborted, undelivered: string[] }` (oldest first).
 */
export const POST = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "write", async ({ scope, session }) => {
    const aborted = await requestAbort(scope, session.id);
    const undelivered = await cancelQueued(scope, session.id);
    // A run this instance owns stops now (after its queued texts are taken back for this answer); owners on
    // other instances see the flag within 500 ms.
    if (aborted) abortLocalRuns(session.id);
    return Response.json({ aborted, undelivered });
  });
});
