import ws from "ws";
import { z } from "zod";
import { DbScope, setNodeWebSocket } from "@/lib/db/client";
import { RUNTIME_BODY_CAP, readForm, readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, badRequest, route } from "@/lib/http/errors";
import { toProjectView } from "@/lib/http/views";
import { createGitImportHttp } from "@/lib/net/git-http";
import { gitImportPolicy } from "@/lib/projects/git-hosts";
import { getLocalActor } from "@/lib/projects/identity";
import { importProject } from "@/lib/projects/import";
import { listProjects } from "@/lib/projects/projects";

// nodejs, not edge: a git import resolves the URL's host and checks every address it connects to (lib/net/git-http.ts),
// which the edge runtime cannot do. Node 20 has no global WebSocket, so the Neon driver gets `ws` here.
export const runtime = "nodejs";
setNodeWebSocket(ws);
export const dynamic = "force-dynamic";

const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const GitImport = z.object({
  gitUrl: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//.test(u), "only http(s) git URLs are supported"),
  name: z.string().max(100).optional(),
  ref: z.string().max(200).optional(),
});

export const GET = route(async () => {
  const scope = new DbScope();
  try {
    const actor = await getLocalActor(scope);
    return Response.json({ projects: (await listProjects(scope, actor.workspaceId)).map(toProjectView) });
  } finally {
    await scope.release();
  }
});

/** Run an import; a failure of the source itself (clone, archive) answers 422 with its message. */
async function imported(run: () => ReturnType<typeof importProject>): Promise<Response> {
  try {
    const result = await run();
    return Response.json({ project: toProjectView(result.project), report: result.report }, { status: 201 });
  } catch (error) {
    if (error instanceof ApiError || !(error instanceof Error) || error.name === "VfsConflictError")
      throw error;
    throw new ApiError(422, "import_failed", error.message);
  }
}

/** Import a project: JSON `{gitUrl, name?, ref?}` or multipart `file` (+ `name`). */
export const POST = route(async (request: Request) => {
  const scope = new DbScope();
  try {
    const actor = await getLocalActor(scope);
    const type = request.headers.get("content-type") ?? "";
    if (type.includes("multipart/form-data")) {
      const form = await readForm(request, { limit: RUNTIME_BODY_CAP });
      const file = form.get("file");
      if (!(file instanceof File)) throw badRequest("multipart field 'file' is required");
      if (!/\.(zip|tar\.gz|tgz|tar)$/i.test(file.name))
        throw badRequest(`Unsupported archive type: ${file.name} (use .zip, .tar.gz or .tgz)`);
      if (file.size > MAX_UPLOAD_BYTES)
        throw new ApiError(
          413,
          "too_large",
          `Archive is ${file.size} bytes; the limit is ${MAX_UPLOAD_BYTES}`,
        );
      const name = form.get("name");
      const bytes = new Uint8Array(await file.arrayBuffer());
      return imported(() =>
        importProject(
          scope,
          actor.workspaceId,
          { kind: "archive", fileName: file.name, bytes },
          typeof name === "string" ? name : undefined,
        ),
      );
    }
    const body = GitImport.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    return imported(() =>
      importProject(scope, actor.workspaceId, { kind: "git", url: body.gitUrl, ref: body.ref }, body.name, {
        gitHttp: createGitImportHttp(gitImportPolicy(process.env)),
      }),
    );
  } finally {
    await scope.release();
  }
});
