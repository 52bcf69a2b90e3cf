import { z } from "zod";
import { withDb } from "@/lib/db/client";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { withProject } from "@/lib/http/project-context";
import { withRefusals } from "@/lib/http/refusals";
import { toProjectView } from "@/lib/http/views";
import { deleteProject, renameProject } from "@/lib/projects/projects";

export const runtime = "edge";
export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(id, async ({ project }) => Response.json({ project: toProjectView(project) }));
});

const Rename = z.object({ name: z.string() }).strict();

/** Rename: `{ name }` → `{ project }` (the directory stays; lib/projects/projects.ts `renameProject`). */
export const PATCH = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { name } = Rename.parse(await readJson(req, { limit: SMALL_JSON_LIMIT }));
  const project = await withDb((scope) => withRefusals(() => renameProject(scope, id, name)));
  return Response.json({ project: toProjectView(project) });
});

/** Delete the project, its files, git repository and sessions → `{ deleted }`; 409 while a session runs. */
export const DELETE = route(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const deleted = await withDb((scope) => withRefusals(() => deleteProject(scope, id)));
  return Response.json({ deleted });
});
