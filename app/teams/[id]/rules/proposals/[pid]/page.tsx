import { notFound } from "next/navigation";
import { ProposalView } from "@/components/rules/proposal-view";
import { asRole } from "@/lib/auth/roles";
import { withDb } from "@/lib/db/client";
import { listPageWorkspaces, requirePageCaller } from "@/lib/http/page-caller";

export const dynamic = "force-dynamic";

/**
 * One rules proposal of a team: its diff, comments and (by role) review or author actions. Signed-out visitors are
 * sent to sign in; a team the caller is not in is the 404 page (an unknown proposal is reported by the client view).
 */
export default async function ProposalPage({ params }: { params: Promise<{ id: string; pid: string }> }) {
  const { id, pid } = await params;
  const found = await withDb(async (scope) => {
    const path = `/teams/${encodeURIComponent(id)}/rules/proposals/${encodeURIComponent(pid)}`;
    const { caller } = await requirePageCaller(scope, path);
    const workspaces = await listPageWorkspaces(scope, caller.userId);
    const team = workspaces.find((w) => w.id === id && w.kind === "team");
    return team ? { team, userId: caller.userId } : null;
  });
  const role = found ? asRole(found.team.role) : null;
  if (!found || !role) notFound();
  return (
    <ProposalView
      key={pid}
      workspaceId={id}
      proposalId={pid}
      teamName={found.team.name}
      role={role}
      userId={found.userId}
    />
  );
}
