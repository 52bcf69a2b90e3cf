import { z } from "zod";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { setRulesPreview } from "@/lib/projects/team-rules-resources";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ proposalId: z.string().min(1).max(100).nullable() });

/**
 * Preview a team rules proposal in this session (its branch's files stand in for the team rules root in the
 * session's context until it is approved, rejected or withdrawn), or stop (`null`). Body `{ proposalId }`; answers
 * `{ preview: { proposalId, title } | null }`. Needs write on the session; only the proposal's author may preview it
 * (403); 404 for a proposal of another workspace; 409 when the proposal is no longer open.
 */
export const PUT = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  return withSession(request, id, "write", async ({ scope, session, project, caller }) => {
    const body = input.parse(Body);
    const preview = await setRulesPreview(scope, {
      sessionId: session.id,
      workspaceId: project.workspaceId,
      userId: caller.userId,
      proposalId: body.proposalId,
    });
    return Response.json({ preview });
  });
});
