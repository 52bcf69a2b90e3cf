import type { Metadata } from "next";
import auth from "@/components/account/auth.module.css";
import { AuthShell } from "@/components/account/auth-shell";
import { withNext } from "@/components/account/next-path";
import { InvitationActions, SwitchAccountButton } from "@/components/teams/join-actions";
import styles from "@/components/teams/teams.module.css";
import { loadInvitation } from "@/lib/auth/account-reads";
import { resolveCaller } from "@/lib/auth/caller";
import { withDb } from "@/lib/db/client";
import { pageRequest } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Team invitation · Strata", referrer: "no-referrer" };

const dateOf = (value: Date | string) =>
  new Date(value).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * `/invitations/<id>`: an invitation by email (the id is its link). Shows the team, role, inviter and expiry;
 * signed in with the invited address, Accept / Decline (Better Auth's accept-invitation / reject-invitation);
 * signed in with another address, which address it is for; signed out, sign in or sign up and come back.
 */
export default async function InvitationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const path = `/invitations/${encodeURIComponent(id)}`;
  const { invitation, caller } = await withDb(async (scope) => {
    const caller = await resolveCaller(scope, await pageRequest(path)).catch(() => null);
    return { invitation: await loadInvitation(scope, id), caller };
  });

  if (!invitation)
    return (
      <AuthShell title="Invitation not found" subtitle="This invitation does not exist.">
        <p className={styles.hint}>
          Check the link you were sent, or ask a team owner or admin to invite you again.
        </p>
      </AuthShell>
    );

  const expired = new Date(invitation.expires_at).getTime() <= Date.now();
  const forMe = caller && caller.email.toLowerCase() === invitation.email.toLowerCase();
  const closed =
    invitation.status === "accepted"
      ? "This invitation was already accepted."
      : invitation.status === "rejected"
        ? "This invitation was declined."
        : invitation.status === "canceled"
          ? "This invitation was cancelled by the team. Ask a team owner or admin to invite you again."
          : expired
            ? "This invitation has expired. Ask a team owner or admin to invite you again."
            : null;

  return (
    <AuthShell
      title={`Join ${invitation.team_name}`}
      subtitle={`${invitation.inviter_name} invited ${invitation.email} to this team on Strata.`}
    >
      <dl className={styles.facts}>
        <dt>Team</dt>
        <dd>{invitation.team_name}</dd>
        <dt>Role</dt>
        <dd style={{ textTransform: "capitalize" }}>{invitation.role ?? "member"}</dd>
        <dt>For</dt>
        <dd>{invitation.email}</dd>
        <dt>Expires</dt>
        <dd>{dateOf(invitation.expires_at)} UTC</dd>
      </dl>
      {closed ? (
        <>
          <p className={styles.error} role="alert">
            {closed}
          </p>
          {invitation.status === "accepted" && forMe ? (
            <a
              className={auth.primary}
              href={`/?workspace=${invitation.workspace_id}`}
              style={{ marginTop: 12 }}
            >
              Open {invitation.team_name}
            </a>
          ) : null}
        </>
      ) : !caller ? (
        <div className={auth.form}>
          <p className={styles.hint}>Sign in (or create an account) with {invitation.email} to accept.</p>
          <a className={auth.primary} href={withNext("/sign-in", path)}>
            Sign in to accept
          </a>
          <a className={auth.secondary} href={withNext("/sign-up", path)}>
            Create an account
          </a>
        </div>
      ) : !forMe ? (
        <div className={auth.form}>
          <p className={styles.error} role="alert">
            This invitation is for {invitation.email}, but you are signed in as {caller.email}. Sign in with{" "}
            {invitation.email} to accept it.
          </p>
          <SwitchAccountButton next={path} />
        </div>
      ) : (
        <InvitationActions invitationId={invitation.id} workspaceId={invitation.workspace_id} />
      )}
    </AuthShell>
  );
}
