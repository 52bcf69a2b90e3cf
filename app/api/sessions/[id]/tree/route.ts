import { loadSessionTreeView } from "@/lib/agent-session/session-tree";
import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The session's entry tree (flat, depth first) and its current leaf. */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "read", async ({ scope }) =>
    Response.json(await loadSessionTreeView(scope, id)),
  );
});
