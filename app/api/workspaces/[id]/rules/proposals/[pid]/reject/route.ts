import { withWorkspace } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { rejectProposal } from "@/lib/rules";
import { rulesUser } from "@/lib/rules/access";
import { RejectBody } from "@/lib/rules/api-schemas";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; pid: string }> };

/** Reject an open proposal; optional body `{ reason }` (stored as the reviewer's comment) → `{ proposal }` (manage). */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const { id, pid } = await params;
  return withWorkspace(req, id, "manage", async ({ scope, caller }) => {
    const hasBody = req.headers.get("content-type") !== null;
    const { reason } = hasBody
      ? RejectBody.parse(await readJson(req, { limit: SMALL_JSON_LIMIT, empty: {} }))
      : {};
    return Response.json({ proposal: await rejectProposal(scope, id, pid, rulesUser(caller), reason) });
  });
});
