"use client";

import { useId, useState } from "react";
import { slugBase, slugSuffix, validSlug } from "./slug";
import { createTeam, teamErrorMessage } from "./team-api";
import styles from "./teams.module.css";

/** Longest team name the form accepts. */
const MAX_NAME = 80;

/**
 * Create a team: its name, and its URL name derived from it plus a random suffix (shown, editable, "New suffix"
 * makes another). On success the browser goes to the team's settings page to invite people.
 */
export function NewTeamForm() {
  const nameId = useId();
  const slugId = useId();
  const [name, setName] = useState("");
  const [suffix, setSuffix] = useState(slugSuffix);
  const [customSlug, setCustomSlug] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const slug = customSlug ?? `${slugBase(name)}-${suffix}`;
  const trimmed = name.trim();
  const slugOk = validSlug(slug);

  async function submit() {
    if (!trimmed || !slugOk || busy) return;
    setBusy(true);
    setError(null);
    try {
      const team = await createTeam(trimmed, slug);
      window.location.assign(`/teams/${team.id}`);
    } catch (e) {
      setError(teamErrorMessage(e));
      setBusy(false);
    }
  }

  return (
    <form
      className={styles.card}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className={styles.dialogField}>
        <label htmlFor={nameId}>Team name</label>
        <input
          id={nameId}
          type="text"
          value={name}
          maxLength={MAX_NAME}
          placeholder="e.g. Platform team"
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className={styles.dialogField}>
        <label htmlFor={slugId}>URL name</label>
        <div className={styles.copyRow}>
          <input
            id={slugId}
            type="text"
            value={slug}
            maxLength={64}
            spellCheck={false}
            aria-describedby={`${slugId}-hint`}
            onChange={(e) => setCustomSlug(e.target.value.toLowerCase())}
          />
          <button
            type="button"
            className="btn"
            onClick={() => {
              setCustomSlug(null);
              setSuffix(slugSuffix());
            }}
          >
            New suffix
          </button>
        </div>
        <p id={`${slugId}-hint`} className={styles.hint}>
          {slugOk
            ? "Unique across this server; made from the name plus a random suffix."
            : "Use 3–64 lowercase letters, digits and dashes (not at the start or end)."}
        </p>
      </div>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      <p className={styles.hint}>
        You will be the team's owner. Next you can invite people by link or by email.
      </p>
      <div className={styles.form} style={{ marginTop: 12 }}>
        <button type="submit" className="btn btn-primary" disabled={busy || !trimmed || !slugOk}>
          {busy ? "Creating…" : "Create team"}
        </button>
        <a className="btn" href="/">
          Cancel
        </a>
      </div>
    </form>
  );
}
