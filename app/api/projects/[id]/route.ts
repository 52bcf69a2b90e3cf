import { route } from "@/lib/http/errors";
import { withProject } from "@/lib/http/project-context";
import { toProjectView } from "@/lib/http/views";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(id, async ({ project }) => Response.json({ project: toProjectView(project) }));
});
