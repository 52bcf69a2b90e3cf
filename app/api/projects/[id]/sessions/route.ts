import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { toSessionView } from "@/lib/http/views";
import { leafModels } from "@/lib/session/leaf-model";
import { createSession, listSessions } from "@/lib/session/store";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withProject(req, id, "read", async ({ scope, project }) => {
    const sessions = await listSessions(scope, project.id);
    // Each session's current model (its leaf's last model_change or assistant message), as GET /api/sessions/:id.
    const models = await leafModels(scope, project.id);
    return Response.json({ sessions: sessions.map((s) => toSessionView(s, models.get(s.id) ?? null)) });
  });
});

/** A new empty session of the project, created by (and recorded as) the caller. */
export const POST = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  const input = await readJsonInput(req, { limit: SMALL_JSON_LIMIT, empty: {} });
  return withProject(req, id, "write", async ({ scope, project, caller }) => {
    // The body must be JSON (or empty); none of its fields is used.
    input.parse(z.unknown());
    const session = await createSession(scope, {
      projectId: project.id,
      cwd: project.rootPath,
      userId: caller.userId,
    });
    return Response.json({ session: toSessionView(session, null) }, { status: 201 });
  });
});
