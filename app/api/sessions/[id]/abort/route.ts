import { DbScope } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { route } from "@/lib/http/errors";
import { requestAbort } from "@/lib/session/runs";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Ask the session's running agent (on any server instance) to abort. */
export const POST = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const scope = new DbScope();
  try {
    return Response.json({ aborted: isUuid(id) ? await requestAbort(scope, id) : false });
  } finally {
    await scope.release();
  }
});
