import { notFound } from "next/navigation";
import { MergeReview } from "@/components/merge/merge-review";
import { authorizeSession } from "@/lib/access/authorize";
import { AuthError } from "@/lib/auth/errors";
import { roleAllows } from "@/lib/auth/roles";
import { approvalNeeded } from "@/lib/checkpoints/merge-requests";
import { withDb } from "@/lib/db/client";
import { requirePageCaller } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";

/**
 * The review of merging one session into its project's main line (docs/checkpoints.md, "Merging into main"), or
 * with `?from=main` of bringing main's changes into the session ("Bringing main into a session").
 * Signed-out visitors are sent to sign in; an unknown session, a session of another project or of a workspace the
 * caller is not in answer Strata's 404 page alike. A caller whose role cannot write sees the review without merging.
 */
export default async function MergePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; sessionId: string }>;
  searchParams: Promise<{ from?: string | string[] }>;
}) {
  const { id, sessionId } = await params;
  const direction = (await searchParams).from === "main" ? "from-main" : "into-main";
  const found = await withDb(async (scope) => {
    const path = `/projects/${encodeURIComponent(id)}/sessions/${encodeURIComponent(sessionId)}/merge${direction === "from-main" ? "?from=main" : ""}`;
    const { caller } = await requirePageCaller(scope, path);
    try {
      const { session, project, access } = await authorizeSession(scope, caller, sessionId, "read");
      if (project.id !== id) return null;
      return {
        projectName: project.name,
        title: session.title,
        createdAt: session.createdAt,
        readOnly: !roleAllows(access.role, "write"),
        approval: {
          needed: await approvalNeeded(scope, access),
          canDecide: roleAllows(access.role, "manage"),
        },
      };
    } catch (error) {
      if (error instanceof AuthError && error.status === 404) return null;
      throw error;
    }
  });
  if (!found) notFound();
  return (
    <MergeReview
      key={`${sessionId}:${direction}`}
      direction={direction}
      projectId={id}
      sessionId={sessionId}
      projectName={found.projectName}
      sessionTitle={found.title}
      sessionCreatedAt={found.createdAt}
      readOnly={found.readOnly}
      approval={found.approval}
    />
  );
}
