import { loadSessionTreeView, SessionNotFoundError } from "@/lib/agent/session-tree";
import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The session's entry tree (flat, depth first) and its current leaf. */
export const GET = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!isUuid(id)) throw new SessionNotFoundError(id);
  const scope = new DbScope();
  try {
    return Response.json(await loadSessionTreeView(scope, id));
  } finally {
    await scope.release();
  }
});
