"use client";

import { useState } from "react";
import { accountErrorMessage, callJson } from "./auth-fetch";
import styles from "./settings.module.css";
import { Field, SettingsCard, StatusLine } from "./settings-card";

/** Longest display name accepted here. */
const MAX_NAME = 100;

/** Profile: the display name (saved with `POST /api/auth/update-user`) and the sign-in email (shown, not editable). */
export function ProfileSection({
  name: initialName,
  email,
  onRenamed,
}: {
  name: string;
  email: string;
  onRenamed: (name: string) => void;
}) {
  const [name, setName] = useState(initialName);
  const [saved, setSaved] = useState(initialName);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const trimmed = name.trim();

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!trimmed) {
      setStatus({ kind: "error", text: "Enter a name; it is how teammates see you." });
      return;
    }
    setBusy(true);
    setStatus(null);
    try {
      await callJson("/api/auth/update-user", { name: trimmed });
      setSaved(trimmed);
      setName(trimmed);
      onRenamed(trimmed);
      setStatus({ kind: "ok", text: "Name saved." });
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={save}>
      <SettingsCard
        id="profile"
        title="Profile"
        description="How you appear to teammates in member lists, rule history and proposals."
        footer={
          <>
            <StatusLine status={status} />
            <button type="submit" className="btn btn-primary" disabled={busy || trimmed === saved}>
              {busy ? "Saving…" : "Save"}
            </button>
          </>
        }
      >
        <div className={styles.fields}>
          <Field
            id="profile-name"
            label="Name"
            type="text"
            autoComplete="name"
            value={name}
            maxLength={MAX_NAME}
            onChange={(e) => setName(e.target.value)}
          />
          <Field
            id="profile-email"
            label="Email"
            hint="You sign in with this address. It cannot be changed here."
            className={styles.readonlyField}
            type="email"
            value={email}
            readOnly
          />
        </div>
      </SettingsCard>
    </form>
  );
}
