import { notFound } from "next/navigation";
import { RulesWorkspace } from "@/components/rules/rules-workspace";
import { asRole } from "@/lib/auth/roles";
import { withDb } from "@/lib/db/client";
import { listPageWorkspaces, requirePageCaller } from "@/lib/http/page-caller";

export const dynamic = "force-dynamic";

/**
 * A team's rules root (`/.team`): files with provenance, the editor, proposals. Signed-out visitors are sent to
 * sign in (lib/http/page-caller.ts); a team the caller is not in, or a workspace that is not a team, is the 404 page.
 */
export default async function TeamRulesPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const team = await withDb(async (scope) => {
    const { caller } = await requirePageCaller(scope, `/teams/${encodeURIComponent(id)}/rules`);
    const workspaces = await listPageWorkspaces(scope, caller.userId);
    return workspaces.find((w) => w.id === id && w.kind === "team") ?? null;
  });
  const role = team ? asRole(team.role) : null;
  if (!team || !role) notFound();
  return <RulesWorkspace key={id} workspaceId={id} teamName={team.name} role={role} />;
}
