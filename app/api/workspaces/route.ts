import { withCaller } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { listUserWorkspaces } from "@/lib/http/workspaces";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** The caller's workspaces, personal first then teams: `{ workspaces: [{ id, name, slug, kind, role }] }`. */
export const GET = route(async (req: Request) =>
  withCaller(req, async ({ scope, caller }) =>
    Response.json({ workspaces: await listUserWorkspaces(scope, caller.userId) }),
  ),
);
