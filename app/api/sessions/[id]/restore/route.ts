import { z } from "zod";
import { restoreSessionPoint } from "@/lib/checkpoints/restore";
import { withSession } from "@/lib/http/access";
import { FILE_JSON_LIMIT, readJsonInput } from "@/lib/http/body";
import { actorOf, Buffers } from "@/lib/http/checkpoint-body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";
import { sessionProviderEnv } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({
  entryId: z.string().min(1).max(200),
  mode: z.enum(["both", "conversation", "files"]),
  summarize: z.boolean().optional(),
  customInstructions: z.string().max(10_000).optional(),
  buffers: Buffers,
  discard: z.boolean().optional(),
});

/**
 * Move to another point of the session with its files (docs/checkpoints.md): `both`, `conversation` (pi `/tree`)
 * or `files`. → `{ leafId, editorText?, restoreId?, keptCommit?, changed }`. Holds the session as its run.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: FILE_JSON_LIMIT });
  const { caller } = await withSession(request, id, "write", async (ctx) => ctx);
  const body = input.parse(Body);
  return withSessionRun(
    id,
    async ({ scope, signal }) => {
      const env = await sessionProviderEnv(scope, id, process.env);
      const result = await restoreSessionPoint({
        scope,
        sessionId: id,
        ...body,
        env,
        signal,
        ...actorOf(caller),
      });
      return Response.json(result);
    },
    request.signal,
    body.summarize ? "branch_summary" : "prompt",
  );
});
