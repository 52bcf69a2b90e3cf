import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppHeader } from "@/components/account/app-header";
import { GitCredentialsCard } from "@/components/git-remote/git-credentials-card";
import { SandboxSetting } from "@/components/sandbox/sandbox-setting";
import { SecretsView } from "@/components/secrets/secrets-view";
import { MergeApprovalSetting } from "@/components/settings/merge-approval-setting";
import { workspaceAccess } from "@/lib/access/authorize";
import { roleAllows } from "@/lib/auth/roles";
import { getMergeApproval } from "@/lib/checkpoints/merge-requests";
import { withDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { getSandboxEnabled } from "@/lib/exec/sandbox-setting";
import { listPageWorkspaces, requirePageCaller } from "@/lib/http/page-caller";
import { PROVIDER_ENV } from "@/lib/llm/provider-env";
import { listGitCredentials, listSecretNames, SECRET_NAMES } from "@/lib/secrets";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Workspace settings · Strata" };

/**
 * The secret names the server environment sets (never a value), so managers see what a workspace secret replaces.
 * Only the variables of `SECRET_NAMES` are looked at.
 */
function serverSet(): string[] {
  return SECRET_NAMES.filter((name) => (process.env[name]?.trim() ?? "") !== "");
}

/**
 * `/workspaces/<id>/settings`: the workspace's provider keys (names, who set them and when; values never leave the
 * server), git credentials, the sandbox switch and, in a team, whether merges into main need approval. Owners and admins set, replace and delete them; other members see that only they can. Signed-out
 * visitors go to sign in; a workspace the caller is not in is the 404 page.
 */
export default async function WorkspaceSettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const found = await withDb(async (scope) => {
    const { caller, mode } = await requirePageCaller(scope, `/workspaces/${encodeURIComponent(id)}/settings`);
    if (!isUuid(id)) return null;
    const access = await workspaceAccess(scope, caller.userId, id);
    if (!access || access.kind === "agent") return null;
    const workspaces = await listPageWorkspaces(scope, caller.userId);
    const workspace = workspaces.find((w) => w.id === id);
    if (!workspace) return null;
    const canManage = roleAllows(access.role, "manage");
    const secrets = canManage ? await listSecretNames(scope, id) : [];
    const gitCredentials = canManage ? await listGitCredentials(scope, id) : [];
    const sandbox = await getSandboxEnabled(scope, id);
    const mergeApproval = await getMergeApproval(scope, id);
    return {
      caller,
      mode,
      workspaces,
      workspace,
      role: access.role,
      canManage,
      secrets,
      gitCredentials,
      sandbox,
      mergeApproval,
    };
  });
  if (!found) notFound();
  const {
    caller,
    mode,
    workspaces,
    workspace,
    role,
    canManage,
    secrets,
    gitCredentials,
    sandbox,
    mergeApproval,
  } = found;
  const providers = Object.fromEntries(
    Object.entries(PROVIDER_ENV).flatMap(([provider, vars]) => [
      [vars.apiKey, provider],
      [vars.baseURL, provider],
    ]),
  );
  return (
    <>
      <AppHeader
        caller={{ id: caller.userId, email: caller.email, name: caller.name }}
        workspaces={workspaces}
        currentWorkspaceId={workspace.id}
        mode={mode}
      />
      <SecretsView
        workspace={{ id: workspace.id, name: workspace.name, kind: workspace.kind }}
        role={role}
        canManage={canManage}
        initial={secrets}
        serverSet={canManage ? serverSet() : []}
        providers={providers}
      >
        <GitCredentialsCard workspaceId={workspace.id} canManage={canManage} initial={gitCredentials} />
        <SandboxSetting workspaceId={workspace.id} initial={sandbox} canChange={roleAllows(role, "delete")} />
        {workspace.kind === "team" ? (
          <MergeApprovalSetting workspaceId={workspace.id} initial={mergeApproval} canChange={canManage} />
        ) : null}
      </SecretsView>
    </>
  );
}
