import { z } from "zod";
import { compactSession, resolveSessionModel } from "@/lib/agent-session/compaction-run";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";
import { sessionProviderEnv } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ focus: z.string().max(10_000).optional() });

/** Compact the session's current branch with its model (pi `/compact [focus]`). */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT, empty: {} });
  // Authorised first (its scope released), then the operation holds the session as its run.
  await withSession(request, id, "write", async () => undefined);
  const body = input.parse(Body);
  return withSessionRun(
    id,
    async ({ scope, signal }) => {
      // Workspace secrets win over the server environment (lib/secrets).
      const env = await sessionProviderEnv(scope, id, process.env);
      const model = await resolveSessionModel(scope, id, env);
      const result = await compactSession({
        scope,
        sessionId: id,
        model,
        env,
        focus: body.focus,
        signal,
      });
      if (result.status === "compacted") return Response.json({ status: result.status, entry: result.entry });
      return Response.json(result);
    },
    request.signal,
  );
});
