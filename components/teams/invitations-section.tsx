"use client";

import { useId, useState } from "react";
import { CopyButton, CopyField } from "./copy-field";
import { RoleTag } from "./members-section";
import {
  cancelInvitation,
  formatDate,
  inviteMember,
  ROLE_HINTS,
  TEAM_ROLES,
  type TeamInvitation,
  type TeamRole,
  teamErrorMessage,
} from "./team-api";
import styles from "./teams.module.css";

/**
 * Invitations by email (admins and owners): an email and a role make an invitation; there is no mail server, so its
 * link (`/invitations/<id>`) is shown to copy and send, with its expiry. Below, the pending invitations with Cancel.
 */
export function InvitationsSection({
  teamId,
  invitations,
  canInviteOwners,
  onChanged,
}: {
  teamId: string;
  invitations: TeamInvitation[];
  canInviteOwners: boolean;
  onChanged: () => void;
}) {
  const emailId = useId();
  const roleId = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TeamRole>("member");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<TeamInvitation | null>(null);
  const now = Date.now();
  const pending = invitations.filter((i) => i.status === "pending" && new Date(i.expiresAt).getTime() > now);
  const linkOf = (id: string) => `${window.location.origin}/invitations/${id}`;

  async function invite() {
    const address = email.trim();
    if (!address || busy) return;
    setBusy(true);
    setError(null);
    setCreated(null);
    try {
      const invitation = await inviteMember(teamId, address, role);
      setCreated(invitation);
      setEmail("");
      onChanged();
    } catch (e) {
      setError(teamErrorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  async function cancel(id: string) {
    setError(null);
    try {
      await cancelInvitation(id);
      if (created?.id === id) setCreated(null);
      onChanged();
    } catch (e) {
      setError(teamErrorMessage(e));
    }
  }

  return (
    <section className={styles.card} aria-labelledby="invite-email-title">
      <div className={styles.cardHead}>
        <h2 id="invite-email-title">Invite by email</h2>
      </div>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          void invite();
        }}
      >
        <div className={`${styles.field} ${styles.grow}`}>
          <label htmlFor={emailId}>Email address</label>
          <input
            id={emailId}
            type="text"
            inputMode="email"
            autoComplete="off"
            placeholder="name@example.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={roleId}>Role</label>
          <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as TeamRole)}>
            {TEAM_ROLES.filter((r) => r !== "owner" || canInviteOwners).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy || !email.trim()}>
          {busy ? "Inviting…" : "Invite"}
        </button>
      </form>
      <p className={styles.hint}>
        {role}: {ROLE_HINTS[role]}. Strata sends no email: copy the invitation link and send it yourself. It
        works only for someone signed in with that address.
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      {created ? (
        <div className={styles.success} role="status">
          <p>
            Invitation for <strong>{created.email}</strong> as {created.role}, valid until{" "}
            {formatDate(created.expiresAt)}. Send them this link:
          </p>
          <CopyField value={linkOf(created.id)} label={`Invitation link for ${created.email}`} />
        </div>
      ) : null}

      <div className={styles.sectionGap}>
        <div className={styles.cardHead}>
          <h2>
            Pending invitations<span className={styles.count}>{pending.length}</span>
          </h2>
        </div>
        {pending.length === 0 ? (
          <p className={styles.empty}>No pending invitations.</p>
        ) : (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Expires</th>
                <th className={styles.right}>Actions</th>
              </tr>
            </thead>
            <tbody>
              {pending.map((i) => (
                <tr key={i.id} data-testid={`invitation-${i.email}`}>
                  <td>{i.email}</td>
                  <td>
                    <RoleTag role={i.role} />
                  </td>
                  <td className="muted">{formatDate(i.expiresAt)}</td>
                  <td className={styles.right}>
                    <CopyButton value={linkOf(i.id)} />{" "}
                    <button type="button" className="btn btn-small" onClick={() => void cancel(i.id)}>
                      Cancel
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
