import { withCaller } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { listSharesForCaller } from "@/lib/share/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Every live share the caller may revoke (created by them, or of a workspace they administer) → `{ shares }`. */
export const GET = route(async (request: Request) =>
  withCaller(request, async ({ scope, caller }) =>
    Response.json({ shares: await listSharesForCaller(scope, caller) }),
  ),
);
