import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { sessionVersion } from "@/lib/session/session-version";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The change feed of the session: `{ version }`, an opaque token that changes when an entry is appended, the leaf
 * moves, a run starts or ends, or the queue changes (lib/session/session-version.ts). Every open tab polls it.
 */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "read", async ({ scope }) =>
    Response.json({ version: await sessionVersion(scope, id) }, { headers: { "cache-control": "no-store" } }),
  );
});
