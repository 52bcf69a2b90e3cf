import { z } from "zod";
import { isUuid } from "@/lib/db/ids";
import { withProject } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { notFound, route } from "@/lib/http/errors";
import { importedSessionResponse } from "@/lib/http/session-import";
import { storeParsedSession } from "@/lib/session/import-export";
import { commitSessionUpload, deleteSessionUpload } from "@/lib/session/session-upload";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; uploadId: string }> };

const Commit = z.object({
  parts: z.number().int().min(1).max(10_000),
  bytes: z.number().int().min(1),
});

/** Import the staged file (`{ parts, bytes }` as the client sent them): `201 { session, diagnostics }`, all or none. */
export const POST = route(async (request: Request, { params }: Ctx) => {
  const { id, uploadId } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT });
  return withProject(request, id, "write", async ({ scope, project, caller }) => {
    const body = input.parse(Commit);
    if (!isUuid(uploadId)) throw notFound(`Session upload ${uploadId}`);
    const imported = await commitSessionUpload(scope, project.id, uploadId, body, (parsed, name) =>
      storeParsedSession(scope, project.id, parsed, { userId: caller.userId, path: name }),
    );
    return importedSessionResponse(scope, imported);
  });
});

/** Cancel an upload: its staged parts are deleted (`{ deleted: true }`); 404 when the project has no such upload. */
export const DELETE = route(async (request: Request, { params }: Ctx) => {
  const { id, uploadId } = await params;
  return withProject(request, id, "write", async ({ scope, project }) => {
    if (!isUuid(uploadId)) throw notFound(`Session upload ${uploadId}`);
    await deleteSessionUpload(scope, project.id, uploadId);
    return Response.json({ deleted: true });
  });
});
