import { withWorkspace } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { rulesLog } from "@/lib/rules";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** main's commits, newest first → `{ commits: [{ oid, message, authorName, authorEmail, timestamp, parents }] }`; `?limit=` (1-1000, default 50) (read). */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(req, id, "read", async ({ scope }) => {
    const raw = Number(new URL(req.url).searchParams.get("limit") ?? 50);
    const limit = Number.isInteger(raw) && raw > 0 ? Math.min(raw, 1000) : 50;
    return Response.json({ commits: await rulesLog(scope, id, limit) });
  });
});
