import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppHeader } from "@/components/account/app-header";
import { TeamSettings } from "@/components/teams/team-settings";
import styles from "@/components/teams/teams.module.css";
import { Notice } from "@/components/ui/notice";
import frame from "@/components/ui/settings-page.module.css";
import { workspaceAccess } from "@/lib/access/authorize";
import { localSignInOpen } from "@/lib/auth/local-owner";
import { LOCAL_OWNER_EMAIL } from "@/lib/auth/mode";
import { withDb } from "@/lib/db/client";
import { isUuid } from "@/lib/db/ids";
import { listPageWorkspaces, requirePageCaller } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Team settings · Strata" };

/**
 * `/teams/<id>`: a team's members, roles, invitations, invite links, leave and delete. Signed-out visitors go to sign
 * in; a team the caller is not in (or a personal workspace, or no such id) is the 404 page.
 */
export default async function TeamPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const found = await withDb(async (scope) => {
    const { caller, mode } = await requirePageCaller(scope, `/teams/${encodeURIComponent(id)}`);
    if (!isUuid(id)) return null;
    const access = await workspaceAccess(scope, caller.userId, id);
    if (access?.kind !== "team") return null;
    const workspaces = await listPageWorkspaces(scope, caller.userId);
    const team = workspaces.find((w) => w.id === id);
    if (!team) return null;
    return {
      caller,
      mode,
      workspaces,
      team,
      role: access.role,
      autoSignIn: caller.email === LOCAL_OWNER_EMAIL && (await localSignInOpen(scope, process.env)),
    };
  });
  if (!found) notFound();
  const { caller, mode, workspaces, team, role, autoSignIn } = found;
  return (
    <>
      <AppHeader
        caller={{ id: caller.userId, email: caller.email, name: caller.name }}
        workspaces={workspaces}
        currentWorkspaceId={team.id}
        mode={mode}
      />
      <main className={frame.page}>
        <header className={frame.head}>
          <div>
            <div className={frame.crumbs}>Team settings</div>
            <h1>{team.name}</h1>
            <p className={frame.sub}>
              <span className={styles.slug}>{team.slug}</span> · your role: {role}
            </p>
          </div>
          <nav className={frame.links} aria-label="Team pages">
            <a className={frame.linkBtn} href={`/?workspace=${team.id}`}>
              Projects
            </a>
            <a className={frame.linkBtn} href={`/teams/${team.id}/rules`}>
              Team rules
            </a>
            {role === "owner" || role === "admin" ? (
              <a className={frame.linkBtn} href={`/workspaces/${team.id}/settings`}>
                Workspace settings
              </a>
            ) : null}
          </nav>
        </header>
        {autoSignIn ? (
          <Notice
            kind="warning"
            title="Anyone who opens this server's address is signed in as the local owner"
            actions={
              <a className="btn" href="/settings#password">
                Set a password
              </a>
            }
          >
            <p>
              Automatic sign-in (the embedded default) is still on, so the roles of this team protect nothing
              yet. Set a password for the local owner in Settings before you invite people: that ends
              automatic sign-in.
            </p>
          </Notice>
        ) : null}
        <TeamSettings teamId={team.id} me={{ userId: caller.userId, role }} />
      </main>
    </>
  );
}
