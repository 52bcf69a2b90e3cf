import { withWorkspace } from "@/lib/http/access";
import { FILE_JSON_LIMIT, readJson } from "@/lib/http/body";
import { badRequest, route } from "@/lib/http/errors";
import { getProposal, listComments, proposalDiff, updateProposal, withdrawProposal } from "@/lib/rules";
import { rulesUser } from "@/lib/rules/access";
import { PatchProposalBody } from "@/lib/rules/api-schemas";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; pid: string }> };

/** One proposal → `{ proposal, diff: [{ path, status, before, after, patch }], comments }` (read). */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const { id, pid } = await params;
  return withWorkspace(req, id, "read", async ({ scope }) => {
    const proposal = await getProposal(scope, id, pid);
    const [diff, comments] = [await proposalDiff(scope, id, pid), await listComments(scope, id, pid)];
    return Response.json({ proposal, diff, comments });
  });
});

/**
 * The author updates their open proposal: `{ changes?, title?, description? }` (a new commit on its branch), or
 * withdraws it: `{ status: "withdrawn" }` → `{ proposal }` (write; author only, else 403).
 */
export const PATCH = route(async (req: Request, { params }: Ctx) => {
  const { id, pid } = await params;
  return withWorkspace(req, id, "write", async ({ scope, caller }) => {
    const body = PatchProposalBody.parse(await readJson(req, { limit: FILE_JSON_LIMIT }));
    const user = rulesUser(caller);
    if (body.status === "withdrawn") {
      if (body.changes || body.title !== undefined || body.description !== undefined)
        throw badRequest('Withdraw with { status: "withdrawn" } alone; send changes in a separate request.');
      return Response.json({ proposal: await withdrawProposal(scope, id, pid, user) });
    }
    const { title, description, changes = [] } = body;
    if (changes.length === 0 && title === undefined && description === undefined)
      throw badRequest(
        'Nothing to update: send changes, a title or a description (or { status: "withdrawn" }).',
      );
    return Response.json({
      proposal: await updateProposal(scope, id, pid, user, { title, description, changes }),
    });
  });
});
