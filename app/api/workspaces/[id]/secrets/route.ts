import { withWorkspace } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { listSecretNames } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The workspace's secrets (owners and admins) → `{ secrets: [{ name, updatedAt, updatedBy }] }`, A→Z, never a value. */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, access }) =>
    Response.json({ secrets: await listSecretNames(scope, access.workspaceId) }),
  );
});
