import { z } from "zod";
import { getMergeApproval, setMergeApproval } from "@/lib/checkpoints/merge-requests";
import { withWorkspace } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

const Body = z.object({ enabled: z.boolean() }).strict();

/** Whether members' merges into main wait for an admin's approval (any member) → `{ enabled }`. */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "read", async ({ scope, access }) =>
    Response.json({ enabled: await getMergeApproval(scope, access.workspaceId) }),
  );
});

/**
 * Require approval of members' merges, or not (owners and admins of a team workspace): `{ enabled }` → `{ enabled }`;
 * 400 `not_a_team` for a personal workspace.
 */
export const PUT = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(request, id, "manage", async ({ scope, access }) => {
    const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    return Response.json({ enabled: await setMergeApproval(scope, access.workspaceId, body.enabled) });
  });
});
