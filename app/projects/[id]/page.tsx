import { notFound } from "next/navigation";
import { ProjectWorkspace } from "@/components/projects/project-workspace";
import { authorizeProject } from "@/lib/access/authorize";
import { workspaceName } from "@/lib/auth/account-reads";
import { AuthError } from "@/lib/auth/errors";
import { roleAllows } from "@/lib/auth/roles";
import { withDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { requirePageCaller } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The IDE for one project. Signed-out visitors are sent to sign in (lib/http/page-caller.ts); an unknown (or
 * malformed) project id, and a project of a workspace the caller is not in, answer Strata's 404 page alike. A caller
 * whose role cannot write (a viewer) gets the IDE read-only, with a banner naming the workspace.
 */
export default async function ProjectPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ session?: string | string[] }>;
}) {
  const { id } = await params;
  // A link naming a session (`?session=<id>`) still names it after signing in.
  const linked = (await searchParams).session;
  const back = typeof linked === "string" ? `?session=${encodeURIComponent(linked)}` : "";
  const visible = await withDb(async (scope) => {
    const { caller } = await requirePageCaller(scope, `/projects/${encodeURIComponent(id)}${back}`);
    if (!isUuid(id)) return null;
    try {
      const { access } = await authorizeProject(scope, caller, id, "read");
      if (roleAllows(access.role, "write")) return { readOnly: null };
      const name = await workspaceName(scope, access.workspaceId);
      return { readOnly: { role: access.role, workspaceName: name ?? "this workspace" } };
    } catch (error) {
      if (error instanceof AuthError && error.status === 404) return null;
      throw error;
    }
  });
  if (!visible) notFound();
  const note = visible.readOnly
    ? `You are a ${visible.readOnly.role} in ${visible.readOnly.workspaceName}: you can read files and sessions. Ask an owner or admin of the team for member access to prompt or edit.`
    : null;
  return <ProjectWorkspace key={id} projectId={id} readOnlyNote={note} />;
}
