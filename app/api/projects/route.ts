import ws from "ws";
import { z } from "zod";
import { setNodeWebSocket } from "@/lib/db/client";
import { createExecutor } from "@/lib/exec/client";
import { ExecUnavailableError } from "@/lib/exec/types";
import { withWorkspaceOrPersonal } from "@/lib/http/access";
import { RUNTIME_BODY_CAP, readForm, readJson, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { ApiError, badRequest, route } from "@/lib/http/errors";
import { toProjectView } from "@/lib/http/views";
import { createGitImportHttp } from "@/lib/net/git-http";
import { gitImportPolicy } from "@/lib/projects/git-hosts";
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
  workspaceId: z.string().max(64).optional(),
});

/** The projects of `?workspaceId=` (default: the caller's personal workspace), newest first; needs `read` there. */
export const GET = route(async (request: Request) => {
  const workspaceId = new URL(request.url).searchParams.get("workspaceId") ?? undefined;
  return withWorkspaceOrPersonal(request, workspaceId, "read", async ({ scope, access }) =>
    Response.json({ projects: (await listProjects(scope, access.workspaceId)).map(toProjectView) }),
  );
});

/** Run an import; a failure of the source itself (clone, archive) answers 422 with its message. */
async function imported(run: () => ReturnType<typeof importProject>): Promise<Response> {
  try {
    const result = await run();
    return Response.json({ project: toProjectView(result.project), report: result.report }, { status: 201 });
  } catch (error) {
    if (error instanceof ApiError || !(error instanceof Error) || error.name === "VfsConflictError")
      throw error;
    if (error instanceof ExecUnavailableError) throw new ApiError(503, "exec_unavailable", error.message);
    throw new ApiError(422, "import_failed", error.message);
  }
}

type Source = Parameters<typeof importProject>[2];

/** The import a request asks for: multipart `file` (+ `name`, `workspaceId`) or JSON `{gitUrl, name?, ref?, workspaceId?}`. */
async function readSource(
  request: Request,
): Promise<{ source: Source; name?: string; workspaceId?: string }> {
  if (!(request.headers.get("content-type") ?? "").includes("multipart/form-data")) {
    const body = GitImport.parse(await readJson(request, { limit: SMALL_JSON_LIMIT }));
    const source: Source = { kind: "git", url: body.gitUrl, ref: body.ref };
    return { source, name: body.name, workspaceId: body.workspaceId };
  }
  const form = await readForm(request, { limit: RUNTIME_BODY_CAP });
  const file = form.get("file");
  if (!(file instanceof File)) throw badRequest("multipart field 'file' is required");
  if (!/\.(zip|tar\.gz|tgz|tar)$/i.test(file.name))
    throw badRequest(`Unsupported archive type: ${file.name} (use .zip, .tar.gz or .tgz)`);
  if (file.size > MAX_UPLOAD_BYTES)
    throw new ApiError(413, "too_large", `Archive is ${file.size} bytes; the limit is ${MAX_UPLOAD_BYTES}`);
  const [name, workspaceId] = [form.get("name"), form.get("workspaceId")];
  return {
    source: { kind: "archive", fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) },
    name: typeof name === "string" ? name : undefined,
    workspaceId: typeof workspaceId === "string" && workspaceId ? workspaceId : undefined,
  };
}

/** Import a project into `workspaceId` (default: the caller's personal workspace); needs `write` there. */
export const POST = route(async (request: Request) => {
  const { source, name, workspaceId } = await readSource(request);
  return withWorkspaceOrPersonal(request, workspaceId, "write", async ({ scope, caller, access }) => {
    if (access.kind === "agent") throw badRequest("Projects belong to a personal or team workspace.");
    const gitHttp = source.kind === "git" ? createGitImportHttp(gitImportPolicy(process.env)) : undefined;
    // With STRATA_EXEC_URL an archive is unpacked by the execution service, off this event loop.
    const executor = source.kind === "archive" ? createExecutor(process.env) : undefined;
    return imported(() =>
      importProject(scope, access.workspaceId, source, name, { gitHttp, executor, userId: caller.userId }),
    );
  });
});
