import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { toProjectView } from "@/lib/http/views";
import { deleteProject, renameProject } from "@/lib/projects/projects";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withProject(req, id, "read", async ({ project }) =>
    Response.json({ project: toProjectView(project) }),
  );
});

const Rename = z.object({ name: z.string() }).strict();

/** Rename: `{ name }` → `{ project }` (the directory stays; lib/projects/projects.ts `renameProject`). */
export const PATCH = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  const input = await readJsonInput(req, { limit: SMALL_JSON_LIMIT });
  return withProject(req, id, "write", async ({ scope }) => {
    const { name } = input.parse(Rename);
    const project = await renameProject(scope, id, name);
    return Response.json({ project: toProjectView(project) });
  });
});

/** Delete the project, its files, git repository and sessions → `{ deleted }`; 409 while a session runs. */
export const DELETE = route(async (req: Request, { params }: Ctx) => {
  const { id } = await params;
  return withProject(req, id, "write", async ({ scope }) =>
    Response.json({ deleted: await deleteProject(scope, id) }),
  );
});
