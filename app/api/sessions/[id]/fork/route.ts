import { z } from "zod";
import { forkSession } from "@/lib/agent/session-tree";
import { withSession } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { recordSessionUser } from "@/lib/http/session-user";
import { toSessionView } from "@/lib/http/views";
import { loadContextPath } from "@/lib/session/context-load";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ entryId: z.string().min(1).max(200) });

/** A new session of the caller holding the root→entry path of this one (pi `createBranchedSession`). */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
  return withSession(request, id, "write", async ({ scope, caller }) => {
    const forked = await forkSession(scope, id, body.entryId);
    const session = await recordSessionUser(scope, forked, caller.userId);
    const { model } = (await loadContextPath(scope, session.id)).settings;
    return Response.json(
      { session: toSessionView(session, model ? `${model.provider}/${model.modelId}` : null) },
      { status: 201 },
    );
  });
});
