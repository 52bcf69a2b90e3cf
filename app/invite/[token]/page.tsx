import type { Metadata } from "next";
import auth from "@/components/account/auth.module.css";
import { AuthShell } from "@/components/account/auth-shell";
import { withNext } from "@/components/account/next-path";
import { JoinByLinkButton } from "@/components/teams/join-actions";
import styles from "@/components/teams/teams.module.css";
import { isWorkspaceMember } from "@/lib/auth/account-reads";
import { resolveCaller } from "@/lib/auth/caller";
import { INVITE_LINK_REFUSALS, previewInviteLink } from "@/lib/auth/invite-links";
import { withDb } from "@/lib/db/client";
import { pageRequest } from "@/lib/http/page-caller";

export const runtime = "edge";
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Join a team · Strata", referrer: "no-referrer" };

const dateOf = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * `/invite/<token>`: an "anyone with the link" invitation. Shows the team, the role and who made the link; signed
 * in, "Join"; signed out, sign in or sign up and come back here. Unknown, expired, revoked or used-up links say so.
 */
export default async function InviteLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const path = `/invite/${encodeURIComponent(token)}`;
  const { preview, caller, member } = await withDb(async (scope) => {
    const caller = await resolveCaller(scope, await pageRequest(path)).catch(() => null);
    const preview = await previewInviteLink(scope, token);
    const member =
      caller && preview ? await isWorkspaceMember(scope, preview.workspaceId, caller.userId) : false;
    return { preview, caller, member };
  });

  if (!preview)
    return (
      <AuthShell title="Invite link not found" subtitle="This invite link does not exist.">
        <p className={styles.hint}>
          Check that you copied all of it, or ask a team owner or admin for a new one.
        </p>
        <a
          className={auth.secondary}
          href="/"
          style={{ marginTop: 16, display: "block", textAlign: "center" }}
        >
          Go to Strata
        </a>
      </AuthShell>
    );

  return (
    <AuthShell
      title={`Join ${preview.teamName}`}
      subtitle={`${preview.inviterName} invited you to this team on Strata.`}
    >
      <dl className={styles.facts}>
        <dt>Team</dt>
        <dd>{preview.teamName}</dd>
        <dt>Your role</dt>
        <dd style={{ textTransform: "capitalize" }}>{preview.role}</dd>
        <dt>Invited by</dt>
        <dd>{preview.inviterName}</dd>
        <dt>Link expires</dt>
        <dd>{dateOf(preview.expiresAt)} UTC</dd>
      </dl>
      {member ? (
        <>
          <p className={styles.hint}>You are already a member of this team.</p>
          <a className={auth.primary} href={`/?workspace=${preview.workspaceId}`} style={{ marginTop: 12 }}>
            Open {preview.teamName}
          </a>
        </>
      ) : preview.status !== "active" ? (
        <p className={styles.error} role="alert">
          {INVITE_LINK_REFUSALS[preview.status]}
        </p>
      ) : caller ? (
        <>
          <p className={styles.hint} style={{ marginBottom: 12 }}>
            Signed in as {caller.email}.
          </p>
          <JoinByLinkButton token={token} teamName={preview.teamName} />
        </>
      ) : (
        <div className={auth.form}>
          <a className={auth.primary} href={withNext("/sign-in", path)}>
            Sign in to join
          </a>
          <a className={auth.secondary} href={withNext("/sign-up", path)}>
            Create an account to join
          </a>
        </div>
      )}
    </AuthShell>
  );
}
