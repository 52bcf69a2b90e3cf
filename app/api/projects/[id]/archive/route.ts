import { withProject } from "@/lib/http/access";
import { route } from "@/lib/http/errors";
import { buildProjectArchive } from "@/lib/remote/archive";

export const runtime = "edge";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/**
 * `GET /api/projects/:id/archive[?commit=<oid|ref|HEAD>]` → the project's working tree (no `commit`) or that commit's
 * files as `application/zip`, `Content-Disposition: attachment; filename="<project>-<short oid>.zip"`. 400
 * `invalid_commit`, 404 `commit_not_found`, 413 `archive_too_large` (lib/remote/archive.ts).
 */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { id } = await params;
  const commit = new URL(request.url).searchParams.get("commit") ?? undefined;
  return withProject(request, id, "read", async ({ project, vfs }) => {
    const archive = await buildProjectArchive(vfs, project, commit === "" ? undefined : commit);
    return new Response(archive.bytes as BodyInit, {
      headers: {
        "content-type": "application/zip",
        "content-length": String(archive.bytes.length),
        "content-disposition": `attachment; filename="${archive.fileName}"`,
        "cache-control": "no-store",
        "x-strata-commit": archive.commit ?? "working-tree",
      },
    });
  });
});
