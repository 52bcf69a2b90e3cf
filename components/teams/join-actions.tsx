"use client";

import { useState } from "react";
import auth from "@/components/account/auth.module.css";
import { FormError } from "@/components/account/auth-shell";
import { signOut } from "@/components/account/sign-out";
import { acceptInvitation, acceptInviteLink, rejectInvitation, teamErrorMessage } from "./team-api";
import styles from "./teams.module.css";

/** "Join team" on an invite-link page: joins, then opens the team's projects. */
export function JoinByLinkButton({ token, teamName }: { token: string; teamName: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <FormError message={error} />
      <button
        type="button"
        className={auth.primary}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            const joined = await acceptInviteLink(token);
            window.location.assign(`/?workspace=${joined.workspaceId}`);
          } catch (e) {
            setError(teamErrorMessage(e));
            setBusy(false);
          }
        }}
      >
        {busy ? "Joining…" : `Join ${teamName}`}
      </button>
    </>
  );
}

/** Accept / Decline on an email invitation's page. */
export function InvitationActions({
  invitationId,
  workspaceId,
}: {
  invitationId: string;
  workspaceId: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [declined, setDeclined] = useState(false);
  if (declined)
    return (
      <p className={styles.hint} role="status">
        You declined the invitation. If that was a mistake, ask for a new one.{" "}
        <a href="/">Go to your projects</a>
      </p>
    );
  const act = async (fn: () => Promise<unknown>, after: () => void) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      after();
    } catch (e) {
      setError(teamErrorMessage(e));
      setBusy(false);
    }
  };
  return (
    <>
      <FormError message={error} />
      <div className={styles.actions}>
        <button
          type="button"
          className={auth.secondary}
          disabled={busy}
          onClick={() =>
            void act(
              () => rejectInvitation(invitationId),
              () => setDeclined(true),
            )
          }
        >
          Decline
        </button>
        <button
          type="button"
          className={auth.primary}
          disabled={busy}
          onClick={() =>
            void act(
              () => acceptInvitation(invitationId),
              () => window.location.assign(`/?workspace=${workspaceId}`),
            )
          }
        >
          {busy ? "Working…" : "Accept invitation"}
        </button>
      </div>
    </>
  );
}

/** Sign out, then sign in again (as someone else) and come back to `next`. */
export function SwitchAccountButton({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <FormError message={error} />
      <button
        type="button"
        className={auth.secondary}
        onClick={() => signOut(next).catch((e: unknown) => setError(teamErrorMessage(e)))}
      >
        Sign out and switch account
      </button>
    </>
  );
}
