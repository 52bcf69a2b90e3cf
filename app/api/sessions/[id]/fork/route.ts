import { z } from "zod";
import { InvalidForkEntryError } from "@/lib/agent-session/session-tree";
import { forkWithFiles } from "@/lib/checkpoints/fork";
import { withSession } from "@/lib/http/access";
import { FILE_JSON_LIMIT, readJsonInput } from "@/lib/http/body";
import { actorOf, Buffers } from "@/lib/http/checkpoint-body";
import { ApiError, route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";
import { recordSessionUser } from "@/lib/http/session-user";
import { toSessionView } from "@/lib/http/views";
import { loadContextPath } from "@/lib/session/context-load";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({
  entryId: z.string().min(1).max(200),
  /** pi's fork cut: `at` (default) keeps the entry; `before` (a user message, pi's `/fork`) the path before it. */
  position: z.enum(["before", "at"]).optional(),
  /** The files at that point too (default): the working tree switches to its commit, what it held kept first. */
  files: z.boolean().default(true),
  buffers: Buffers,
});

/**
 * A new session of the caller holding the root→entry path of this one (pi `createBranchedSession`; with
 * `position: "before"`, pi's `/fork` of a user message: the path before it, its text as `editorText`) and, with
 * `files`, the files at that point (docs/checkpoints.md) → 201 `{ session, editorText?, restoreId?, changed }`.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: FILE_JSON_LIMIT });
  const { caller } = await withSession(request, id, "write", async (ctx) => ctx);
  const body = input.parse(Body);
  const fork = async ({ scope }: { scope: Parameters<typeof forkWithFiles>[0]["scope"] }) => {
    const forked = await forkWithFiles({ scope, sessionId: id, ...body, ...actorOf(caller) }).catch(
      (error) => {
        if (error instanceof InvalidForkEntryError)
          throw new ApiError(400, "invalid_fork_entry", error.message);
        throw error;
      },
    );
    const session = await recordSessionUser(scope, forked.session, caller.userId);
    const { model } = (await loadContextPath(scope, session.id)).settings;
    const view = toSessionView(session, model ? `${model.provider}/${model.modelId}` : null);
    return Response.json(
      { session: view, editorText: forked.editorText, restoreId: forked.restoreId, changed: forked.changed },
      { status: 201 },
    );
  };
  // Switching files holds the source session as its run (no run of it writes meanwhile).
  return body.files
    ? withSessionRun(id, fork, request.signal, "prompt")
    : withSession(request, id, "write", fork);
});
