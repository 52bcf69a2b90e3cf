import { z } from "zod";
import { navigateTree, SessionNotFoundError } from "@/lib/agent/session-tree";
import { isUuid } from "@/lib/db/ids";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({
  entryId: z.string().min(1).max(200),
  summarize: z.boolean().optional(),
  customInstructions: z.string().max(10_000).optional(),
});

/** Move the session's leaf to an entry (pi `/tree`), optionally summarizing the branch left behind. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
  if (!isUuid(id)) throw new SessionNotFoundError(id);
  return withSessionRun(
    id,
    async ({ scope, signal }) => {
      const result = await navigateTree({
        scope,
        sessionId: id,
        targetId: body.entryId,
        summarize: body.summarize,
        customInstructions: body.customInstructions,
        env: process.env,
        signal,
      });
      return Response.json(result);
    },
    request.signal,
    body.summarize ? "branch_summary" : "prompt",
  );
});
