import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { loadSessionResources, toSessionResourcesView } from "@/lib/projects/session-resources";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The resources in effect for the session and the caller: provenance, diagnostics and the project trust status. */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "read", async ({ scope, session, project, caller }) =>
    Response.json(
      await toSessionResourcesView(
        scope,
        await loadSessionResources(scope, { session, project, userId: caller.userId }),
        { session, project },
      ),
    ),
  );
});
