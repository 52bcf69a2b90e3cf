import { z } from "zod";
import { mergeIntoMain } from "@/lib/checkpoints/merge";
import { withSession } from "@/lib/http/access";
import { readJsonInput } from "@/lib/http/body";
import { actorOf } from "@/lib/http/checkpoint-body";
import { route } from "@/lib/http/errors";
import { withSessionRun } from "@/lib/http/session-op";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** A resolution may be as large as a file the editor saves (10 MiB) is, a few of them. */
const MERGE_JSON_LIMIT = 32 * 1024 * 1024;

const Body = z.object({
  resolutions: z.record(z.string().min(1).max(4096), z.string().nullable()).optional(),
  /** Main's commit the review showed: another `HEAD` answers 409 `main_moved`. */
  main: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
});

/**
 * The review of merging the session into the project's main line, nothing written:
 * `{ main, tip, base, files: [{ path, status, before, after }], conflicts, checkpoints, commit: null }`.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(request, id, "read", async ({ scope, caller, session, project }) =>
    Response.json(await mergeIntoMain({ scope, session, project, ...actorOf(caller), preview: true })),
  );
});

/**
 * Merge the session into main (`{ resolutions?, main? }`: conflicting path → the text chosen, null = delete; the
 * reviewed main commit) → the same shape with `commit`; 409 `merge_conflict` with `conflicts` when a conflict has no
 * resolution, 409 `main_moved` when main is no longer the reviewed commit (nothing written either way).
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: MERGE_JSON_LIMIT, empty: {} });
  const { caller, session, project } = await withSession(request, id, "write", async (ctx) => ctx);
  const body = input.parse(Body);
  return withSessionRun(
    id,
    async ({ scope }) =>
      Response.json(
        await mergeIntoMain({
          scope,
          session,
          project,
          ...actorOf(caller),
          resolutions: body.resolutions,
          expectMain: body.main,
        }),
      ),
    request.signal,
    "prompt",
  );
});
