import { withSession } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { seeSession, sessionVersion } from "@/lib/session/session-version";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The change feed of the session: `{ version, viewers }` — an opaque token that changes when an entry is appended,
 * the leaf moves, a run starts or ends, or the queue changes, and who has the session open (the caller is stamped as
 * viewing it; lib/session/session-version.ts). Every open tab polls it.
 */
export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withSession(req, id, "read", async ({ scope, caller }) => {
    const viewers = await seeSession(scope, id, caller.userId);
    const version = await sessionVersion(scope, id);
    return Response.json({ version, viewers }, { headers: { "cache-control": "no-store" } });
  });
});
