import { z } from "zod";
import { resolvePoint } from "@/lib/checkpoints/changes";
import { commitNotFound } from "@/lib/checkpoints/errors";
import { revertChanges } from "@/lib/checkpoints/revert";
import { withSession } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { actorOf } from "@/lib/http/checkpoint-body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({
  from: z.string().min(1).max(200),
  to: z.string().min(1).max(200),
  path: z.string().min(1).max(4096).optional(),
  label: z.string().max(200).optional(),
});

/**
 * Revert the changes between two points (a turn, a tool call's checkpoint) or one file of them, as a new checkpoint
 * on the leaf → `{ commit, paths, entryId }`; 409 `revert_conflict` (nothing written) when a file changed again in the
 * same lines.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  const { caller } = await withSession(request, id, "write", async (ctx) => ctx);
  const body = input.parse(Body);
  return withSessionRun(
    id,
    async ({ scope }) => {
      const [from, to] = [await resolvePoint(scope, id, body.from), await resolvePoint(scope, id, body.to)];
      if (!to) throw commitNotFound(body.to);
      const result = await revertChanges({
        scope,
        sessionId: id,
        from,
        to,
        path: body.path,
        label: body.label ?? `changes ${body.from.slice(0, 8)}..${body.to.slice(0, 8)}`,
        ...actorOf(caller),
      });
      return Response.json(result);
    },
    request.signal,
    "prompt",
  );
});
