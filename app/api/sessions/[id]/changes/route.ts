import { z } from "zod";
import { sessionChanges } from "@/lib/checkpoints/changes";
import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Point = z.string().min(1).max(200);
const Query = z.union([
  z.object({ toolCallId: z.string().min(1).max(200), path: z.string().max(4096).optional() }),
  z.object({ from: Point, to: Point, path: z.string().max(4096).optional() }),
]);

/**
 * The files changed between two points of the session (entry ids or commit ids), or by one tool call, with `+/-`
 * line counts; `path` adds that file's texts before and after → `{ from, to, files, file? }` (docs/checkpoints.md).
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(request, id, "read", async ({ scope }) => {
    const query = Query.parse(Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await sessionChanges(scope, id, query));
  });
});
