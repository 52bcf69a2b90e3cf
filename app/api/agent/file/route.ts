import { z } from "zod";
import { withAgentDir } from "@/lib/http/agent-context";
import { FILE_JSON_LIMIT, readJson } from "@/lib/http/body";
import { badRequest, route } from "@/lib/http/errors";
import { deleteProjectPath, readProjectFile, writeProjectFile } from "@/lib/projects/files";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const WriteBody = z.object({ path: z.string().min(1).max(4096), content: z.string() });

/** A file of the caller's agent dir (path relative to `/.pi/agent`). */
export const GET = route(async (req: Request) =>
  withAgentDir(req, async ({ vfs, root }) => {
    const path = new URL(req.url).searchParams.get("path");
    if (!path) throw badRequest("query parameter 'path' is required");
    return Response.json(await readProjectFile(vfs, root, path));
  }),
);

export const PUT = route(async (req: Request) => {
  const body = WriteBody.parse(await readJson(req, { limit: FILE_JSON_LIMIT }));
  return withAgentDir(req, async ({ vfs, root }) => {
    const { size } = await writeProjectFile(vfs, root, body.path, body.content);
    await vfs.flush();
    return Response.json({ path: body.path, size });
  });
});

/** Delete a file or a folder of the caller's agent dir (with everything below it); 404 when missing. */
export const DELETE = route(async (req: Request) =>
  withAgentDir(req, async ({ vfs, root }) => {
    const path = new URL(req.url).searchParams.get("path");
    if (!path) throw badRequest("query parameter 'path' is required");
    return Response.json(await deleteProjectPath(vfs, root, path));
  }),
);
