import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { notFound, route } from "@/lib/http/errors";
import { toSessionView } from "@/lib/http/views";
import { loadBranch } from "@/lib/session/context-load";
import { entryRepairs } from "@/lib/session/entry-repair";
import { buildSessionMessages, getSessionContextSettings } from "@/lib/session/projection";
import { listQueued } from "@/lib/session/queue";
import { getLiveRun } from "@/lib/session/runs";
import { getSession } from "@/lib/session/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The session, the messages of its current branch (root first), its live run if any (`{ kind }`, e.g. started
 * in another tab), the texts queued for it, and what reading the branch repaired (`repairs`, stored broken content).
 */
export const GET = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const scope = new DbScope();
  try {
    const session = isUuid(id) ? await getSession(scope, id) : null;
    if (!session) throw notFound(`Session ${id}`);
    const branch = await loadBranch(scope, session.id, session.leafId);
    const { model } = getSessionContextSettings(branch);
    const run = await getLiveRun(scope, session.id);
    return Response.json({
      session: toSessionView(session, model ? `${model.provider}/${model.modelId}` : null),
      messages: buildSessionMessages(branch),
      repairs: entryRepairs(branch),
      run,
      queue: run ? await listQueued(scope, session.id) : { steering: [], followUp: [] },
    });
  } finally {
    await scope.release();
  }
});
