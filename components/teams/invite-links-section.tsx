"use client";

import { useId, useState } from "react";
import { CopyField } from "./copy-field";
import { RoleTag } from "./members-section";
import {
  createInviteLink,
  formatDate,
  type InviteLink,
  ROLE_HINTS,
  revokeInviteLink,
  type TeamRole,
  teamErrorMessage,
} from "./team-api";
import styles from "./teams.module.css";

const STATUS_WORDS: Record<InviteLink["status"], string> = {
  active: "active",
  expired: "expired",
  revoked: "revoked",
  used_up: "used up",
};

/**
 * "Anyone with the link" invitations (admins and owners): role, expiry (1, 7 or 30 days) and an optional maximum
 * number of uses make a link, shown once to copy; the list shows every link's role, expiry, uses and creator, with
 * Revoke for the active ones.
 */
export function InviteLinksSection({
  teamId,
  links,
  onChanged,
}: {
  teamId: string;
  links: InviteLink[];
  onChanged: () => void;
}) {
  const roleId = useId();
  const daysId = useId();
  const usesId = useId();
  const [role, setRole] = useState<TeamRole>("member");
  const [days, setDays] = useState(7);
  const [maxUses, setMaxUses] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<{ url: string; link: InviteLink } | null>(null);
  const usesValue = maxUses.trim() === "" ? null : Number(maxUses);
  const usesOk = usesValue === null || (Number.isInteger(usesValue) && usesValue >= 1 && usesValue <= 1000);

  async function create() {
    if (busy || !usesOk) return;
    setBusy(true);
    setError(null);
    try {
      const made = await createInviteLink(teamId, { role, expiresInDays: days, maxUses: usesValue });
      setFresh({ url: `${window.location.origin}${made.path}`, link: made.link });
      onChanged();
    } catch (e) {
      setError(teamErrorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: string) {
    setError(null);
    try {
      await revokeInviteLink(teamId, id);
      if (fresh?.link.id === id) setFresh(null);
      onChanged();
    } catch (e) {
      setError(teamErrorMessage(e));
    }
  }

  return (
    <section className={styles.card} aria-labelledby="invite-links-title">
      <div className={styles.cardHead}>
        <h2 id="invite-links-title">Invite links</h2>
        <span className="hint">Anyone with the link who signs in joins the team.</span>
      </div>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <div className={styles.field}>
          <label htmlFor={roleId}>Role</label>
          <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as TeamRole)}>
            <option value="admin">admin</option>
            <option value="member">member</option>
            <option value="viewer">viewer</option>
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={daysId}>Expires after</label>
          <select id={daysId} value={days} onChange={(e) => setDays(Number(e.target.value))}>
            <option value={1}>1 day</option>
            <option value={7}>7 days</option>
            <option value={30}>30 days</option>
          </select>
        </div>
        <div className={`${styles.field} ${styles.narrow}`}>
          <label htmlFor={usesId}>Max uses</label>
          <input
            id={usesId}
            type="text"
            inputMode="numeric"
            placeholder="no limit"
            value={maxUses}
            aria-invalid={!usesOk}
            onChange={(e) => setMaxUses(e.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy || !usesOk}>
          {busy ? "Creating…" : "Create link"}
        </button>
      </form>
      <p className={styles.hint}>
        {usesOk
          ? `${role}: ${ROLE_HINTS[role]}. A link cannot make owners.`
          : "Max uses must be a whole number from 1 to 1000, or empty for no limit."}
      </p>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      {fresh ? (
        <div className={styles.success} role="status">
          <p>
            New {fresh.link.role} link, valid until {formatDate(fresh.link.expiresAt)}
            {fresh.link.maxUses === null
              ? ""
              : ` for ${fresh.link.maxUses} use${fresh.link.maxUses === 1 ? "" : "s"}`}
            . Copy it now: it is shown only once.
          </p>
          <CopyField value={fresh.url} label="New invite link" />
        </div>
      ) : null}

      <div className={styles.sectionGap}>
        {links.length === 0 ? (
          <p className={styles.empty}>No invite links yet.</p>
        ) : (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Role</th>
                <th>Status</th>
                <th>Expires</th>
                <th>Uses</th>
                <th>Created by</th>
                <th className={styles.right}>Actions</th>
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.id} data-testid={`invite-link-${l.id}`}>
                  <td>
                    <RoleTag role={l.role} />
                  </td>
                  <td>
                    <span className={`${styles.status} ${styles[`status_${l.status}`]}`}>
                      {STATUS_WORDS[l.status]}
                    </span>
                  </td>
                  <td className="muted">{formatDate(l.expiresAt)}</td>
                  <td>
                    {l.uses}
                    {l.maxUses === null ? "" : ` / ${l.maxUses}`}
                  </td>
                  <td className="muted">{l.createdBy.name}</td>
                  <td className={styles.right}>
                    {l.status === "active" ? (
                      <button type="button" className="btn btn-small" onClick={() => void revoke(l.id)}>
                        Revoke
                      </button>
                    ) : null}
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
