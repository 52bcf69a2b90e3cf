import { ApiError, badRequest, readFormData, route } from "@/lib/http/errors";
import { withProject } from "@/lib/http/project-context";
import { toSessionView } from "@/lib/http/views";
import { getLocalActor } from "@/lib/projects/identity";
import { loadContextPath } from "@/lib/session/context-load";
import { importSessionJsonl } from "@/lib/session/import-export";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Largest accepted session file (bytes). */
const MAX_SESSION_BYTES = 64 * 1024 * 1024;

/** The uploaded file: multipart `file`, or the raw body (`?name=` names it in errors). */
async function readUpload(request: Request): Promise<{ name: string; text: string }> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_SESSION_BYTES)
    throw new ApiError(
      413,
      "too_large",
      `Session file is ${declared} bytes; the limit is ${MAX_SESSION_BYTES}`,
    );
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    const form = await readFormData(request);
    const file = form.get("file");
    if (!(file instanceof File)) throw badRequest("multipart field 'file' is required");
    if (file.size > MAX_SESSION_BYTES)
      throw new ApiError(
        413,
        "too_large",
        `Session file is ${file.size} bytes; the limit is ${MAX_SESSION_BYTES}`,
      );
    return { name: file.name || "<upload>", text: await file.text() };
  }
  const text = await request.text();
  if (text.length > MAX_SESSION_BYTES)
    throw new ApiError(413, "too_large", `Session file is larger than ${MAX_SESSION_BYTES} bytes`);
  return { name: new URL(request.url).searchParams.get("name") || "<upload>", text };
}

/** Import a pi session file (JSONL) as a new session of the project. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const upload = await readUpload(request);
  return withProject(id, async ({ scope, project }) => {
    const actor = await getLocalActor(scope);
    const { session, diagnostics } = await importSessionJsonl(scope, project.id, upload.text, {
      path: upload.name,
      userId: actor.userId,
    });
    const { model } = (await loadContextPath(scope, session.id)).settings;
    return Response.json(
      { session: toSessionView(session, model ? `${model.provider}/${model.modelId}` : null), diagnostics },
      { status: 201 },
    );
  });
});
