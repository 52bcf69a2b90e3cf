"use client";

import { useState } from "react";
import { accountErrorMessage, callJson, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./auth-fetch";
import styles from "./settings.module.css";
import { Field, SettingsCard, StatusLine } from "./settings-card";

/**
 * What is wrong with a new password and its confirmation before anything is sent, or null: too short, too long,
 * or the two do not match.
 */
export function newPasswordProblem(password: string, confirm: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The new password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The new password is too long: use at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password !== confirm)
    return "The two new passwords do not match. Type the same password in both fields.";
  return null;
}

type Status = { kind: "ok" | "error"; text: string } | null;

/**
 * Password: "Change password" (`POST /api/auth/change-password` with the current one, optionally signing out the
 * other devices) for an account with a password, "Set a password" (`POST /api/account/password`) for one without
 * (the local owner), after which it becomes the change form.
 */
export function PasswordSection({ hasPassword: initial }: { hasPassword: boolean }) {
  const [hasPassword, setHasPassword] = useState(initial);
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [revokeOthers, setRevokeOthers] = useState(true);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const problem = newPasswordProblem(password, confirm);
    if (problem) {
      setStatus({ kind: "error", text: problem });
      return;
    }
    setBusy(true);
    setStatus(null);
    try {
      if (hasPassword) {
        await callJson("/api/auth/change-password", {
          currentPassword: current,
          newPassword: password,
          revokeOtherSessions: revokeOthers,
        });
        setStatus({
          kind: "ok",
          text: revokeOthers ? "Password changed. Your other devices were signed out." : "Password changed.",
        });
      } else {
        await callJson("/api/account/password", { newPassword: password });
        setHasPassword(true);
        setStatus({
          kind: "ok",
          text: "Password set. You can now sign in with your email and this password.",
        });
      }
      setCurrent("");
      setPassword("");
      setConfirm("");
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit}>
      <SettingsCard
        id="password"
        title={hasPassword ? "Change password" : "Set a password"}
        description={
          hasPassword
            ? "Use a password you do not use anywhere else."
            : "This account has no password yet (the local owner is signed in automatically). Setting one ends automatic sign-in: from then on anyone opening this server signs in with a password — do it before you invite people to a team."
        }
        footer={
          <>
            <StatusLine status={status} />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? "Saving…" : hasPassword ? "Change password" : "Set password"}
            </button>
          </>
        }
      >
        <div className={styles.fields}>
          {hasPassword ? (
            <Field
              id="current-password"
              label="Current password"
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              required
            />
          ) : null}
          <Field
            id="new-password"
            label="New password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <Field
            id="confirm-password"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            required
          />
          {hasPassword ? (
            <label className={styles.check}>
              <input
                type="checkbox"
                checked={revokeOthers}
                onChange={(e) => setRevokeOthers(e.target.checked)}
              />
              Sign out of all other devices
            </label>
          ) : null}
        </div>
      </SettingsCard>
    </form>
  );
}
