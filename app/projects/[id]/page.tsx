import { notFound } from "next/navigation";
import { ProjectWorkspace } from "@/components/projects/project-workspace";
import { authorizeProject } from "@/lib/auth/authorize";
import { AuthError } from "@/lib/auth/errors";
import { withDb } from "@/lib/db/client";
import { requirePageCaller } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The IDE for one project. Signed-out visitors are sent to sign in (lib/http/page-caller.ts); an unknown (or
 * malformed) project id, and a project of a workspace the caller is not in, answer Strata's 404 page alike.
 */
export default async function ProjectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const visible = await withDb(async (scope) => {
    const { caller } = await requirePageCaller(scope, `/projects/${encodeURIComponent(id)}`);
    if (!UUID.test(id)) return false;
    try {
      await authorizeProject(scope, caller, id, "read");
      return true;
    } catch (error) {
      if (error instanceof AuthError && error.status === 404) return false;
      throw error;
    }
  });
  if (!visible) notFound();
  return <ProjectWorkspace key={id} projectId={id} />;
}
