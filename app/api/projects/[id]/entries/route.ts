import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, route } from "@/lib/http/errors";
import { createProjectEntry } from "@/lib/projects/create-entry";
import { moveProjectEntry } from "@/lib/projects/move-entry";
import { VfsError } from "@/lib/vfs/errors";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const CreateBody = z.object({ path: z.string().min(1).max(4096), kind: z.enum(["file", "dir"]) });
const MoveBody = z.object({ from: z.string().min(1).max(4096), to: z.string().min(1).max(4096) });

/** VfsError EEXIST → 409 `exists` (nothing is overwritten); everything else as `route` maps it. */
function existsAsConflict(error: unknown): never {
  if (error instanceof VfsError && error.code === "EEXIST") throw new ApiError(409, "exists", error.message);
  throw error;
}

/**
 * Create an empty file or a folder (the tree's New file / New folder): 201 `{ path, kind }`; 409 `exists`
 * when the path is taken (nothing is overwritten); 400 for an invalid path or a file as parent.
 */
export const POST = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(req, { limit: SMALL_JSON_LIMIT });
  return withProject(req, id, "write", async ({ project, vfs }) => {
    const body = input.parse(CreateBody);
    const created = await createProjectEntry(vfs, project.rootPath, body.path, body.kind).catch(
      existsAsConflict,
    );
    await vfs.flush();
    return Response.json(created, { status: 201 });
  });
});

/**
 * Rename or move a file or folder (a folder with everything below it): 200 `{ from, to, kind, moved }`;
 * 409 `exists` when `to` is taken (nothing is overwritten); 404 for a missing `from`; 400 for an invalid or
 * escaping path, `.git`, the root, or a folder moved into itself.
 */
export const PATCH = route(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(req, { limit: SMALL_JSON_LIMIT });
  return withProject(req, id, "write", async ({ project, vfs }) => {
    const body = input.parse(MoveBody);
    const moved = await moveProjectEntry(vfs, project.rootPath, body.from, body.to).catch(existsAsConflict);
    await vfs.flush();
    return Response.json(moved);
  });
});
