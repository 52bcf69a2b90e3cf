import type { Metadata } from "next";
import { AppHeader } from "@/components/account/app-header";
import { NewTeamForm } from "@/components/teams/new-team-form";
import frame from "@/components/ui/settings-page.module.css";
import { withDb } from "@/lib/db/client";
import { listPageWorkspaces, requirePageCaller } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New team · Strata" };

/** `/teams/new`: name a team and create it (signed-out visitors go to sign in first). */
export default async function NewTeamPage() {
  const { caller, mode, workspaces } = await withDb(async (scope) => {
    const found = await requirePageCaller(scope, "/teams/new");
    return { ...found, workspaces: await listPageWorkspaces(scope, found.caller.userId) };
  });
  return (
    <>
      <AppHeader
        caller={{ id: caller.userId, email: caller.email, name: caller.name }}
        workspaces={workspaces}
        currentWorkspaceId={null}
        mode={mode}
      />
      <main className={frame.page} style={{ maxWidth: 560 }}>
        <header>
          <h1 style={{ fontSize: 22 }}>Create a team</h1>
          <p className={frame.sub}>
            A team is a workspace with members: its projects and team rules are shared with everyone you
            invite.
          </p>
        </header>
        <NewTeamForm />
      </main>
    </>
  );
}
