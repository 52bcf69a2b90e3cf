"use client";

import { type ReactNode, useId, useState } from "react";
import { accountErrorMessage, callJson } from "@/components/account/auth-fetch";
import styles from "./setting-switch.module.css";

type Status = { kind: "ok" | "error"; text: string } | null;

/**
 * A workspace setting that is on or off, as a card of the settings page: its title, what it does (`children`), the
 * switch (`PUT endpoint { enabled }` → `{ enabled }`) for who may change it, and for the others who can. The answer
 * says what changed (`said(enabled)`); a refusal is shown where the switch is.
 */
export function SettingSwitch({
  title,
  endpoint,
  initial,
  canChange,
  whoCanChange,
  said,
  children,
}: {
  title: string;
  endpoint: string;
  initial: boolean;
  canChange: boolean;
  /** Shown to those who cannot change it, e.g. "Only the workspace's owner turns the sandbox on or off." */
  whoCanChange: string;
  said: (enabled: boolean) => string;
  children: ReactNode;
}) {
  const [enabled, setEnabled] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const id = useId();

  const change = async (next: boolean) => {
    setBusy(true);
    setStatus(null);
    try {
      const answer = await callJson<{ enabled: boolean }>(endpoint, { enabled: next }, "PUT");
      setEnabled(answer.enabled);
      setStatus({ kind: "ok", text: said(answer.enabled) });
    } catch (err) {
      setStatus({ kind: "error", text: accountErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.card} aria-labelledby={`${id}-title`}>
      <div className={styles.head}>
        <h2 id={`${id}-title`}>{title}</h2>
        <label className={styles.switch}>
          <input
            type="checkbox"
            role="switch"
            aria-checked={enabled}
            aria-labelledby={`${id}-title`}
            aria-describedby={`${id}-what`}
            checked={enabled}
            disabled={!canChange || busy}
            onChange={(e) => void change(e.target.checked)}
          />
          <span>{enabled ? "On" : "Off"}</span>
        </label>
      </div>
      <div id={`${id}-what`} className={styles.description}>
        {children}
      </div>
      {canChange ? null : (
        <p className={styles.notice} role="note">
          {whoCanChange}
        </p>
      )}
      {status ? (
        <p
          className={status.kind === "ok" ? styles.ok : styles.error}
          role={status.kind === "ok" ? "status" : "alert"}
        >
          {status.text}
        </p>
      ) : null}
    </section>
  );
}
