import { withSession } from "@/lib/http/access";
import { notFound, route } from "@/lib/http/errors";
import { followEventStream } from "@/lib/http/run-stream";
import { findRun, followCursor } from "@/lib/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Replay run `runId`'s events after the cursor (`Last-Event-ID` header, else `?after=N`, else 0) from Postgres,
 * then follow the run live until its `run_end`, as SSE (`id: <seq>`, `: keep-alive` every 15 s); a finished run
 * replays and closes. 404 for an unknown run or another session's; 429 `too_many_streams` (with `Retry-After`)
 * past the caller's concurrent streams on this instance (docs/runs.md).
 */
export const GET = route(
  async (request: Request, { params }: { params: Promise<{ id: string; runId: string }> }) => {
    const { id, runId } = await params;
    const after = followCursor(
      request.headers.get("last-event-id"),
      new URL(request.url).searchParams.get("after"),
    );
    const { run, userId } = await withSession(request, id, "read", async ({ scope, session, caller }) => ({
      run: await findRun(scope, session.id, runId),
      userId: caller.userId,
    }));
    if (!run) throw notFound("Run");
    return followEventStream(run.id, after, request.signal, userId);
  },
);
