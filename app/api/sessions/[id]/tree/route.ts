import { loadSessionTreeView, SessionNotFoundError } from "@/lib/agent/session-tree";
import { DbScope } from "@/lib/db/client";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The session's entry tree (flat, depth first) and its current leaf. */
export const GET = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new SessionNotFoundError(id);
  const scope = new DbScope();
  try {
    return Response.json(await loadSessionTreeView(scope, id));
  } finally {
    await scope.release();
  }
});
