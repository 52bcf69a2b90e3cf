import { z } from "zod";
import { withProject } from "@/lib/http/access";
import { readJsonInput, SMALL_JSON_LIMIT } from "@/lib/http/body";
import { route } from "@/lib/http/errors";
import { createSessionUpload } from "@/lib/session/session-upload";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const Body = z.object({ name: z.string().max(200).optional() });

/**
 * Start a session import in parts (files over one request's 8 MiB): `201 { upload: { id, partBytes, maxBytes,
 * maxParts } }`. Then `PUT …/uploads/:uploadId/parts/:n` each byte range (at most `partBytes`), and
 * `POST …/uploads/:uploadId` `{ parts, bytes }` to import it.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const input = await readJsonInput(request, { limit: SMALL_JSON_LIMIT, empty: {} });
  return withProject(request, id, "write", async ({ scope, project }) => {
    const body = input.parse(Body);
    return Response.json(
      { upload: await createSessionUpload(scope, project.id, body.name || "<upload>") },
      { status: 201 },
    );
  });
});
