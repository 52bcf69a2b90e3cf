import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { notFound, route } from "@/lib/http/errors";
import { getProject } from "@/lib/projects/projects";
import { loadSessionResources, toSessionResourcesView } from "@/lib/projects/session-resources";
import { getSession } from "@/lib/session/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The resources in effect for the session: provenance, diagnostics and the project trust status. */
export const GET = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const scope = new DbScope();
  try {
    const session = isUuid(id) ? await getSession(scope, id) : null;
    if (!session) throw notFound(`Session ${id}`);
    const project = await getProject(scope, session.projectId);
    if (!project) throw notFound(`Project ${session.projectId}`);
    return Response.json(toSessionResourcesView(await loadSessionResources(scope, { session, project })));
  } finally {
    await scope.release();
  }
});
