import { withProject } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { listProjectTree } from "@/lib/projects/files";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(req, id, "read", async ({ project, vfs }) =>
    Response.json({ entries: await listProjectTree(vfs, project.rootPath) }),
  );
});
