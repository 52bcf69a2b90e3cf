import { withProject } from "@/lib/http/access";
import { readBody, readForm } from "@/lib/http/body";
import { badRequest, route } from "@/lib/http/errors";
import { importedSessionResponse } from "@/lib/http/session-import";
import { importSessionJsonl } from "@/lib/session/import-export";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Largest session file sent in one request (bytes, 8 MiB); larger files go through `…/import/uploads`. */
const MAX_SESSION_BODY_BYTES = 8 * 1024 * 1024;
const TOO_LARGE_HINT =
  "Larger session files (up to 64 MiB) are imported in parts: POST /api/projects/:id/sessions/import/uploads (the IDE's Import does this).";
/** Raw-body media types of a session file (`?name=` names it in errors). */
const RAW_TYPES = ["application/x-ndjson", "application/jsonl", "application/octet-stream"];

/** The uploaded file: multipart `file`, or the raw body. */
async function readUpload(request: Request): Promise<{ name: string; text: string }> {
  const limits = { limit: MAX_SESSION_BODY_BYTES, tooLargeHint: TOO_LARGE_HINT };
  if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    const file = (await readForm(request, limits)).get("file");
    if (!(file instanceof File)) throw badRequest("multipart field 'file' is required");
    return { name: file.name || "<upload>", text: await file.text() };
  }
  const bytes = await readBody(request, { ...limits, types: RAW_TYPES });
  return {
    name: new URL(request.url).searchParams.get("name") || "<upload>",
    text: new TextDecoder().decode(bytes),
  };
}

/** Import a pi session file (JSONL, at most 8 MiB) as a new session of the project: all entries or none. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const upload = await readUpload(request);
  return withProject(request, id, "write", async ({ scope, project, caller }) => {
    const imported = await importSessionJsonl(scope, project.id, upload.text, {
      path: upload.name,
      userId: caller.userId,
      refuseTorn: true,
    });
    return importedSessionResponse(scope, imported);
  });
});
