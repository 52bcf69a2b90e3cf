import { withWorkspace } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { listGitCredentials } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The workspace's git credentials (owners and admins) → `{ credentials: [{ host, updatedAt, updatedBy }] }`. */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, access }) =>
    Response.json({ credentials: await listGitCredentials(scope, access.workspaceId) }),
  );
});
