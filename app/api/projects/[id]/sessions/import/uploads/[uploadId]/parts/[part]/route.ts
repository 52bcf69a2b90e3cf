import { isUuid } from "@/lib/db/ids";
import { withProject } from "@/lib/http/access";
import { readBody } from "@/lib/http/body";
import { badRequest, notFound, route } from "@/lib/http/errors";
import { putSessionUploadPart, UPLOAD_PART_BYTES } from "@/lib/session/session-upload";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/** Stage byte range `part` (0-based) of a session upload: `application/octet-stream`, at most 4 MiB. */
export const PUT = route(
  async (
    request: Request,
    { params }: { params: Promise<{ id: string; uploadId: string; part: string }> },
  ) => {
    const { id, uploadId, part } = await params;
    if (!/^\d{1,6}$/.test(part)) throw badRequest(`Part index must be a number (got ${part.slice(0, 20)})`);
    const data = await readBody(request, {
      limit: UPLOAD_PART_BYTES,
      types: ["application/octet-stream"],
      tooLargeHint: "Split the file into parts of at most 4 MiB.",
    });
    return withProject(request, id, "write", async ({ scope, project }) => {
      if (!isUuid(uploadId)) throw notFound(`Session upload ${uploadId}`);
      return Response.json(await putSessionUploadPart(scope, project.id, uploadId, Number(part), data));
    });
  },
);
