import { z } from "zod";
import { forkSession, SessionNotFoundError } from "@/lib/agent/session-tree";
import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { toSessionView } from "@/lib/http/views";
import { loadContextPath } from "@/lib/session/context-load";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ entryId: z.string().min(1).max(200) });

/** A new session holding the root→entry path of this one (pi `createBranchedSession`). */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
  if (!isUuid(id)) throw new SessionNotFoundError(id);
  const scope = new DbScope();
  try {
    const session = await forkSession(scope, id, body.entryId);
    const { model } = (await loadContextPath(scope, session.id)).settings;
    return Response.json(
      { session: toSessionView(session, model ? `${model.provider}/${model.modelId}` : null) },
      { status: 201 },
    );
  } finally {
    await scope.release();
  }
});
