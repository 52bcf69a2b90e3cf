import { z } from "zod";
import { compactSession, resolveSessionModel } from "@/lib/agent/compaction-run";
import { SessionNotFoundError } from "@/lib/agent/session-tree";
import { isUuid } from "@/lib/db/ids";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ focus: z.string().max(10_000).optional() });

/** Compact the session's current branch with its model (pi `/compact [focus]`). */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT, empty: {} }));
  if (!isUuid(id)) throw new SessionNotFoundError(id);
  return withSessionRun(
    id,
    async ({ scope, signal }) => {
      const model = await resolveSessionModel(scope, id, process.env);
      const result = await compactSession({
        scope,
        sessionId: id,
        model,
        env: process.env,
        focus: body.focus,
        signal,
      });
      if (result.status === "compacted") return Response.json({ status: result.status, entry: result.entry });
      return Response.json(result);
    },
    request.signal,
  );
});
