import { withWorkspace } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { listRulesFiles, RULES_ROOT } from "@/lib/rules";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The team's rules files on main → `{ root: "/.team", files: [{ path, size, lastChange }] }` (read). */
export const GET = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withWorkspace(req, id, "read", async ({ scope }) =>
    Response.json({ root: RULES_ROOT, files: await listRulesFiles(scope, id) }),
  );
});
