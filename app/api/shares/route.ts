import { withCaller } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { listSharesForCaller } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * Every live share the caller may revoke → `{ shares }`: created by them in a workspace they are still a member of, or
 * of a workspace they administer now (nothing of a team they left).
 */
export const GET = route(async (request: Request) =>
  withCaller(request, async ({ scope, caller }) =>
    Response.json({ shares: await listSharesForCaller(scope, caller) }),
  ),
);
