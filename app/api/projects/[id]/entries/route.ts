import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, route } from "@/lib/http/errors";
import { createProjectEntry } from "@/lib/projects/create-entry";
import { VfsError } from "@/lib/vfs/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const CreateBody = z.object({ path: z.string().min(1).max(4096), kind: z.enum(["file", "dir"]) });

/**
 * Create an empty file or a folder (the tree's New file / New folder): 201 `{ path, kind }`; 409 `exists`
 * when the path is taken (nothing is overwritten); 400 for an invalid path or a file as parent.
 */
export const POST = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const body = CreateBody.parse(await readJson(req, { limit: SMALL_JSON_LIMIT }));
  return withProject(req, id, "write", async ({ project, vfs }) => {
    try {
      const created = await createProjectEntry(vfs, project.rootPath, body.path, body.kind);
      await vfs.flush();
      return Response.json(created, { status: 201 });
    } catch (error) {
      if (error instanceof VfsError && error.code === "EEXIST")
        throw new ApiError(409, "exists", error.message);
      throw error;
    }
  });
});
