import { withProject } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { parseRemoteUrl } from "@/lib/remote";
import { hasGitCredential } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/**
 * `GET /api/projects/:id/git-remote?url=` → `{ host, credential: boolean }`: whether the project's workspace stores a
 * git credential for the URL's host (for the Push/Pull dialogs; never the credential). 400 for a bad URL.
 */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  const url = new URL(request.url).searchParams.get("url") ?? "";
  return withProject(request, id, "read", async ({ scope, project }) => {
    const { host } = parseRemoteUrl(url);
    return Response.json({ host, credential: await hasGitCredential(scope, project.workspaceId, host) });
  });
});
