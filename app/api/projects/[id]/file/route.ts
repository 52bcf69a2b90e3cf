import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { FILE_JSON_LIMIT, readJsonInput } from "@/lib/http/body";
import { badRequest, route } from "@/lib/http/errors";
import { deleteProjectPath, readProjectFile, writeProjectFile } from "@/lib/projects/files";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const WriteBody = z.object({ path: z.string().min(1).max(4096), content: z.string() });

export const GET = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(req, id, "read", async ({ project, vfs }) => {
    const path = new URL(req.url).searchParams.get("path");
    if (!path) throw badRequest("query parameter 'path' is required");
    return Response.json(await readProjectFile(vfs, project.rootPath, path));
  });
});

export const PUT = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(req, { limit: FILE_JSON_LIMIT });
  return withProject(req, id, "write", async ({ project, vfs }) => {
    const body = input.parse(WriteBody);
    const { size } = await writeProjectFile(vfs, project.rootPath, body.path, body.content);
    await vfs.flush();
    return Response.json({ path: body.path, size });
  });
});

/** Delete a file or a folder (with everything below it); 404 when missing, 400 for `.git` or the root. */
export const DELETE = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  return withProject(req, id, "write", async ({ project, vfs }) => {
    const path = new URL(req.url).searchParams.get("path");
    if (!path) throw badRequest("query parameter 'path' is required");
    return Response.json(await deleteProjectPath(vfs, project.rootPath, path));
  });
});
