"use client";

import { useState } from "react";
import { initials } from "@/components/account/app-header";
import { ConfirmDeleteDialog } from "@/components/projects/lifecycle-dialogs";
import {
  type FullTeam,
  formatDate,
  removeMember,
  TEAM_ROLES,
  type TeamMember,
  type TeamRole,
  teamErrorMessage,
  updateMemberRole,
} from "./team-api";
import styles from "./teams.module.css";

const ORDER: Record<string, number> = { owner: 0, admin: 1, member: 2, viewer: 3 };

/** The role as a coloured tag. */
export function RoleTag({ role }: { role: string }) {
  return <span className={`${styles.role} ${styles[`role_${role}`] ?? ""}`}>{role}</span>;
}

/**
 * The member list: name, email, role, joined. Admins and owners change roles (only owners make or unmake owners)
 * and remove members (after a confirmation); everyone else sees it read-only.
 */
export function MembersSection({
  team,
  me,
  onChanged,
}: {
  team: FullTeam;
  me: { userId: string; role: TeamRole };
  onChanged: (opts?: { self?: boolean }) => void;
}) {
  const [busyId, setBusyId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const canManage = me.role === "owner" || me.role === "admin";
  const members = [...team.members].sort(
    (a, b) => (ORDER[a.role] ?? 9) - (ORDER[b.role] ?? 9) || a.user.name.localeCompare(b.user.name),
  );

  async function changeRole(member: TeamMember, role: TeamRole) {
    setBusyId(member.id);
    setError(null);
    try {
      await updateMemberRole(team.id, member.id, role);
      onChanged({ self: member.userId === me.userId });
    } catch (e) {
      setError(`${member.user.name}: ${teamErrorMessage(e)}`);
    } finally {
      setBusyId(null);
    }
  }

  async function confirmRemove() {
    if (!removing) return;
    setBusyId(removing.id);
    setRemoveError(null);
    try {
      await removeMember(team.id, removing.id);
      setRemoving(null);
      onChanged();
    } catch (e) {
      setRemoveError(teamErrorMessage(e));
    } finally {
      setBusyId(null);
    }
  }

  return (
    <section className={styles.card} aria-labelledby="members-title">
      <div className={styles.cardHead}>
        <h2 id="members-title">
          Members<span className={styles.count}>{team.members.length}</span>
        </h2>
        {canManage ? null : <span className="hint">Only owners and admins change members.</span>}
      </div>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Name</th>
            <th>Role</th>
            <th>Joined</th>
            {canManage ? <th className={styles.right}>Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const isMe = m.userId === me.userId;
            // Owners' roles are changed by owners only; only owners may give the owner role.
            const editable = canManage && (me.role === "owner" || m.role !== "owner");
            const removable = canManage && !isMe && (me.role === "owner" || m.role !== "owner");
            return (
              <tr key={m.id} data-testid={`member-${m.user.email}`}>
                <td>
                  <div className={styles.person}>
                    <span className={styles.avatar} aria-hidden="true">
                      {initials(m.user.name, m.user.email)}
                    </span>
                    <div>
                      <div className={styles.name}>
                        {m.user.name}
                        {isMe ? <span className={styles.you}>you</span> : null}
                      </div>
                      <div className={styles.email}>{m.user.email}</div>
                    </div>
                  </div>
                </td>
                <td>
                  {editable ? (
                    <select
                      aria-label={`Role of ${m.user.name}`}
                      value={m.role}
                      disabled={busyId !== null}
                      onChange={(e) => void changeRole(m, e.target.value as TeamRole)}
                    >
                      {TEAM_ROLES.filter((r) => r !== "owner" || me.role === "owner").map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <RoleTag role={m.role} />
                  )}
                </td>
                <td className="muted">{formatDate(m.createdAt)}</td>
                {canManage ? (
                  <td className={styles.right}>
                    {removable ? (
                      <button
                        type="button"
                        className="btn btn-small"
                        disabled={busyId !== null}
                        onClick={() => {
                          setRemoveError(null);
                          setRemoving(m);
                        }}
                      >
                        Remove
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      {removing ? (
        <ConfirmDeleteDialog
          title="Remove member"
          subject={`${removing.user.name} (${removing.user.email})`}
          confirmLabel="Remove"
          busy={busyId === removing.id}
          error={removeError}
          onConfirm={() => void confirmRemove()}
          onCancel={() => setRemoving(null)}
        >
          <p>
            They lose access to this team's projects, sessions and rules at once. You can invite them again
            later.
          </p>
        </ConfirmDeleteDialog>
      ) : null}
    </section>
  );
}
