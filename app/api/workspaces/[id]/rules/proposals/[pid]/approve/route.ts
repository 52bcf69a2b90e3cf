import { withWorkspace } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { approveProposal } from "@/lib/rules";
import { rulesUser } from "@/lib/rules/access";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; pid: string }> };

/** Approve and merge into main → `{ proposal }` (manage); 409 `conflict` naming the paths main changed meanwhile. */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const { id, pid } = await params;
  return withWorkspace(req, id, "manage", async ({ scope, caller }) =>
    Response.json({ proposal: await approveProposal(scope, id, pid, rulesUser(caller)) }),
  );
});
