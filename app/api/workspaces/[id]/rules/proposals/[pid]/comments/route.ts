import { withWorkspace } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { commentOnProposal } from "@/lib/rules";
import { rulesUser } from "@/lib/rules/access";
import { CommentBody } from "@/lib/rules/api-schemas";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; pid: string }> };

/** Comment on a proposal: `{ body }` → 201 `{ comment }` (write: members, admins and owners). */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const { id, pid } = await params;
  return withWorkspace(req, id, "write", async ({ scope, caller }) => {
    const { body } = CommentBody.parse(await readJson(req, { limit: SMALL_JSON_LIMIT }));
    const comment = await commentOnProposal(scope, id, pid, rulesUser(caller), body);
    return Response.json({ comment }, { status: 201 });
  });
});
