import { withProject } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { readGitHead } from "@/lib/projects/git-head";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** `GET /api/projects/:id/git` → `GitHead` (the current branch and HEAD's commit), for the IDE's indicator. */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(req, id, "read", async ({ project, vfs }) =>
    Response.json(await readGitHead(vfs, project.rootPath)),
  );
});
