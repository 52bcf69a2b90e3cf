import { withProject } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { projectTreeVersion } from "@/lib/projects/tree-version";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The change feed of the project's files: `{ version }`, an opaque token that changes whenever anything `/tree`
 * lists is created, changed, moved or deleted (by any tab, the agent, a `!command`). One indexed query; the IDE
 * polls it while the tab is visible.
 */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(req, id, "read", async ({ scope, project }) =>
    Response.json(
      {
        version: await projectTreeVersion(
          scope,
          project.workspaceId,
          project.rootPath,
          new URL(req.url).searchParams.get("session") ?? undefined,
        ),
      },
      { headers: { "cache-control": "no-store" } },
    ),
  );
});
