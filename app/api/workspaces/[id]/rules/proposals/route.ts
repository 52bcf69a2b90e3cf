import { withWorkspace } from "@/lib/http/access";
import { FILE_JSON_LIMIT, readJson } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { createProposal, listProposals } from "@/lib/rules";
import { rulesUser } from "@/lib/rules/access";
import { CreateProposalBody, ProposalStatusQuery } from "@/lib/rules/api-schemas";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The team's proposals, newest first → `{ proposals }`; `?status=open|approved|rejected|withdrawn` (read). */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(req, id, "read", async ({ scope }) => {
    const status = ProposalStatusQuery.parse(new URL(req.url).searchParams.get("status") ?? undefined);
    return Response.json({ proposals: await listProposals(scope, id, { status }) });
  });
});

/** Propose a change: `{ title, description?, changes: [{ path, content | null }] }` → 201 `{ proposal }` (write). */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(req, id, "write", async ({ scope, caller }) => {
    const body = CreateProposalBody.parse(await readJson(req, { limit: FILE_JSON_LIMIT }));
    const proposal = await createProposal(scope, id, rulesUser(caller), body);
    return Response.json({ proposal }, { status: 201 });
  });
});
