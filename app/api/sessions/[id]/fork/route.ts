import { z } from "zod";
import { forkSession, InvalidForkEntryError } from "@/lib/agent/session-tree";
import { withSession } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, route } from "@/lib/http/errors";
import { recordSessionUser } from "@/lib/http/session-user";
import { toSessionView } from "@/lib/http/views";
import { loadContextPath } from "@/lib/session/context-load";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({
  entryId: z.string().min(1).max(200),
  position: z.enum(["before", "at"]).optional(),
});

/**
 * A new session of the caller from this one (pi `createBranchedSession`): `position: "at"` (default) keeps the
 * root→entry path; `"before"` (pi's `/fork` of a user message) keeps the path before it and answers its text as
 * `editorText`.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = Body.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
  return withSession(request, id, "write", async ({ scope, caller }) => {
    const forked = await forkSession(scope, id, body.entryId, { position: body.position }).catch((error) => {
      if (error instanceof InvalidForkEntryError)
        throw new ApiError(400, "invalid_fork_entry", error.message);
      throw error;
    });
    const session = await recordSessionUser(scope, forked.session, caller.userId);
    const { model } = (await loadContextPath(scope, session.id)).settings;
    const view = toSessionView(session, model ? `${model.provider}/${model.modelId}` : null);
    return Response.json(
      forked.editorText === undefined ? { session: view } : { session: view, editorText: forked.editorText },
      { status: 201 },
    );
  });
});
