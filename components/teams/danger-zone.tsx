"use client";

import { useId, useState } from "react";
import { ConfirmDeleteDialog } from "@/components/projects/lifecycle-dialogs";
import { deleteTeam, leaveTeam, type TeamRole, teamErrorMessage } from "./team-api";
import styles from "./teams.module.css";

/**
 * Leave the team (refused, with the reason, for its only owner) and, for owners, delete it after typing its name.
 * Both end on the home page.
 */
export function DangerZone({
  teamId,
  teamName,
  myRole,
  onlyOwner,
}: {
  teamId: string;
  teamName: string;
  myRole: TeamRole;
  onlyOwner: boolean;
}) {
  const typedId = useId();
  const [dialog, setDialog] = useState<"leave" | "delete" | null>(null);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      window.location.assign("/");
    } catch (e) {
      setError(teamErrorMessage(e));
      setBusy(false);
    }
  }

  const open = (which: "leave" | "delete") => {
    setError(null);
    setTyped("");
    setDialog(which);
  };

  return (
    <section className={`${styles.card} ${styles.danger}`} aria-labelledby="danger-title">
      <div className={styles.cardHead}>
        <h2 id="danger-title">{myRole === "owner" ? "Leave or delete" : "Leave"}</h2>
      </div>
      <div className={styles.dangerRow}>
        <div>
          <strong>Leave team</strong>
          <p>
            {onlyOwner
              ? "You are this team's only owner, so you cannot leave: make another member an owner first, or delete the team."
              : "You lose access to the team's projects, sessions and rules. An owner or admin can invite you again."}
          </p>
        </div>
        <button type="button" className="btn" disabled={onlyOwner} onClick={() => open("leave")}>
          Leave team
        </button>
      </div>
      {myRole === "owner" ? (
        <div className={styles.dangerRow}>
          <div>
            <strong>Delete team</strong>
            <p>
              Deletes the team with all its projects, sessions, files and rules, for every member. This cannot
              be undone.
            </p>
          </div>
          <button type="button" className="btn btn-danger" onClick={() => open("delete")}>
            Delete team
          </button>
        </div>
      ) : null}
      {dialog === "leave" ? (
        <ConfirmDeleteDialog
          title="Leave team"
          subject={teamName}
          confirmLabel="Leave team"
          busy={busy}
          error={error}
          onConfirm={() => void run(() => leaveTeam(teamId))}
          onCancel={() => setDialog(null)}
        >
          <p>You lose access to this team's projects, sessions and rules at once.</p>
        </ConfirmDeleteDialog>
      ) : null}
      {dialog === "delete" ? (
        <ConfirmDeleteDialog
          title="Delete team"
          subject={teamName}
          confirmLabel="Delete team forever"
          busy={busy}
          error={error ?? (typed !== "" && typed !== teamName ? "The name does not match yet." : null)}
          onConfirm={() => {
            if (typed === teamName) void run(() => deleteTeam(teamId));
            else setError(`Type the team name, ${teamName}, exactly to confirm.`);
          }}
          onCancel={() => setDialog(null)}
        >
          <p>Every project, session, file and rule of this team is deleted, for every member.</p>
          <div className={styles.dialogField}>
            <label htmlFor={typedId}>
              Type <strong>{teamName}</strong> to confirm
            </label>
            <input
              id={typedId}
              type="text"
              autoComplete="off"
              value={typed}
              onChange={(e) => {
                setError(null);
                setTyped(e.target.value);
              }}
            />
          </div>
        </ConfirmDeleteDialog>
      ) : null}
    </section>
  );
}
