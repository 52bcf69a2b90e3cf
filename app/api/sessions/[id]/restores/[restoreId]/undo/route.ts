import { z } from "zod";
import { undoRestore } from "@/lib/checkpoints/restore";
import { withSession } from "@/lib/http/access";
import { FILE_JSON_LIMIT, readJsonInput } from "@/lib/http/body";
import { actorOf, Buffers } from "@/lib/http/checkpoint-body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ buffers: Buffers, discard: z.boolean().optional() });

/**
 * Undo a restore: back to its leaf and the files it kept, as a new restore (itself undoable) →
 * `{ leafId, restoreId, keptCommit, changed, undone }`. 404 for a restore of another session.
 */
export const POST = route(
  async (request: Request, { params }: { params: Promise<{ id: string; restoreId: string }> }) => {
    const { id, restoreId } = await params;
    const input = await readJsonInput(request, { limit: FILE_JSON_LIMIT });
    const { caller } = await withSession(request, id, "write", async (ctx) => ctx);
    const body = input.parse(Body);
    return withSessionRun(
      id,
      async ({ scope, signal }) =>
        Response.json(
          await undoRestore({
            scope,
            sessionId: id,
            restoreId,
            ...body,
            env: {},
            signal,
            ...actorOf(caller),
          }),
        ),
      request.signal,
      "prompt",
    );
  },
);
