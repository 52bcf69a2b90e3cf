/**
 * The handlers of both merge directions (docs/checkpoints.md): `/api/sessions/:id/merge` (a session into main) and
 * `/api/sessions/:id/pull-main` (main into a session) read the same bodies, authorise alike and answer the same
 * errors; only the merge they call differs.
 */
import { z } from "zod";
import type { MergeInput } from "@/lib/checkpoints/merge";
import { withSession } from "./access";
import { readJsonInput } from "./body";
import { actorOf } from "./checkpoint-body";
import { route } from "./errors";
import { withSessionRun } from "./session-op";

/** A resolution may be as large as a file the editor saves (10 MiB) is, a few of them. */
const MERGE_JSON_LIMIT = 32 * 1024 * 1024;

const Body = z.object({
  /** Conflicting path → the text chosen (null: delete it). */
  resolutions: z.record(z.string().min(1).max(4096), z.string().nullable()).optional(),
  /** Main's commit the review showed: another `HEAD` answers 409 `main_moved`. */
  main: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
});

type Params = { params: Promise<{ id: string }> };

/**
 * `GET` (the review: `merge` with `preview`, nothing written; read access) and `POST` (`{ resolutions?, main? }`:
 * the merge, holding the session's run lock — 409 `run_active` while a run holds it; write access) for `merge`.
 * Another workspace's session answers 404; `merge`'s own errors (409 `merge_conflict`, `main_moved`) pass through.
 */
export function mergeRoutes(merge: (input: MergeInput) => Promise<unknown>) {
  const GET = route(async (request: Request, { params }: Params) => {
    const { id } = await params;
    return withSession(request, id, "read", async ({ scope, caller, session, project }) =>
      Response.json(await merge({ scope, session, project, ...actorOf(caller), preview: true })),
    );
  });
  const POST = route(async (request: Request, { params }: Params) => {
    const { id } = await params;
    const input = await readJsonInput(request, { limit: MERGE_JSON_LIMIT, empty: {} });
    const { caller, session, project, access } = await withSession(request, id, "write", async (ctx) => ctx);
    const body = input.parse(Body);
    return withSessionRun(
      id,
      async ({ scope }) =>
        Response.json(
          await merge({
            scope,
            session,
            project,
            ...actorOf(caller),
            access,
            resolutions: body.resolutions,
            expectMain: body.main,
          }),
        ),
      request.signal,
      "prompt",
    );
  });
  return { GET, POST };
}
