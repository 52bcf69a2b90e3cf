import { z } from "zod";
import { navigateTree } from "@/lib/agent-session/session-tree";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";
import { sessionProviderEnv } from "@/lib/secrets";

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
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  // Authorised first (its scope released), then the operation holds the session as its run.
  await withSession(request, id, "write", async () => undefined);
  const body = input.parse(Body);
  return withSessionRun(
    id,
    async ({ scope, signal }) => {
      // Workspace secrets win over the server environment (lib/secrets).
      const env = await sessionProviderEnv(scope, id, process.env);
      const result = await navigateTree({
        scope,
        sessionId: id,
        targetId: body.entryId,
        summarize: body.summarize,
        customInstructions: body.customInstructions,
        env,
        signal,
      });
      return Response.json(result);
    },
    request.signal,
    body.summarize ? "branch_summary" : "prompt",
  );
});
