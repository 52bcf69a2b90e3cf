import { notFound } from "next/navigation";
import { InspectorPage } from "@/components/inspector/inspector-page";
import { authorizeSession } from "@/lib/access/authorize";
import { AuthError } from "@/lib/auth/errors";
import { withDb } from "@/lib/db/client";
import { requirePageCaller } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The context inspector of one session on a full page (wide screens: the six layers as columns). Signed-out
 * visitors are sent to sign in; an unknown or malformed session id, a session of another project, and a session
 * of a workspace the caller is not in answer Strata's 404 page alike (as the project page). Read access suffices:
 * the inspector changes nothing.
 */
export default async function InspectPage({
  params,
}: {
  params: Promise<{ id: string; sessionId: string }>;
}) {
  const { id, sessionId } = await params;
  const found = await withDb(async (scope) => {
    const path = `/projects/${encodeURIComponent(id)}/sessions/${encodeURIComponent(sessionId)}/inspect`;
    const { caller } = await requirePageCaller(scope, path);
    try {
      const { session, project } = await authorizeSession(scope, caller, sessionId, "read");
      if (project.id !== id) return null;
      return { projectName: project.name, title: session.title };
    } catch (error) {
      if (error instanceof AuthError && error.status === 404) return null;
      throw error;
    }
  });
  if (!found) notFound();
  return (
    <InspectorPage
      key={sessionId}
      projectId={id}
      sessionId={sessionId}
      projectName={found.projectName}
      sessionTitle={found.title}
    />
  );
}
