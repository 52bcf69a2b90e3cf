import { branchTurnChanges } from "@/lib/checkpoints/changes";
import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The turns of the session's current branch that changed files, newest 50, oldest first:
 * `{ turns: [{ userEntryId, lastEntryId, from, to, files: [{ path, status, additions, deletions, binary }] }] }`.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(request, id, "read", async ({ scope, session }) =>
    Response.json({ turns: await branchTurnChanges(scope, id, session.leafId) }),
  );
});
