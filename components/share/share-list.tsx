"use client";

import { useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import styles from "./share.module.css";
import { revokeShare, type ShareSummary } from "./share-api";
import { absoluteShareUrl, expiryText, plural, shareErrorMessage } from "./view-model";

/**
 * A list of live shares (the share dialog's "Live links of this session" and Settings → Shared links): title (and
 * project), created, expiry, redactions, the link, and Revoke behind a confirmation. A failed revoke shows its
 * message on the row; `onRevoked` drops the row.
 */
export function ShareList({
  shares,
  showProject,
  onRevoked,
  label,
}: {
  shares: ShareSummary[];
  showProject?: boolean;
  onRevoked: (id: string) => void;
  label: string;
}) {
  const [confirm, setConfirm] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const revoke = async (share: ShareSummary) => {
    setBusy(share.id);
    setErrors(({ [share.id]: _, ...rest }) => rest);
    try {
      await revokeShare(share.id);
      setConfirm(null);
      onRevoked(share.id);
    } catch (err) {
      setErrors((prev) => ({ ...prev, [share.id]: shareErrorMessage("revoke", err) }));
    } finally {
      setBusy(null);
    }
  };

  return (
    <ul className={styles.shareList} aria-label={label}>
      {shares.map((s) => (
        <li key={s.id} className={styles.shareRow} data-testid={`share-${s.id}`}>
          <span className={styles.shareMain}>
            <span className={styles.shareTitle}>
              {s.title}
              {showProject ? <span className={styles.shareProject}> · {s.projectName}</span> : null}
            </span>
            <span className={styles.shareMeta}>
              Created {formatDateTime(s.createdAt)} by {s.createdBy.name} ·{" "}
              {expiryText(s.expiresAt, formatDateTime)} · {plural(s.entryCount, "entry", "entries")}
              {s.includeFiles ? " · files" : ""}
              {s.includeSystem ? " · system prompt" : ""} ·{" "}
              {plural(s.redactionCount, "redaction", "redactions")}
            </span>
            <a className={styles.shareLink} href={s.url} target="_blank" rel="noreferrer">
              {typeof window === "undefined" ? s.url : absoluteShareUrl(s.url, window.location.origin)}
            </a>
            {errors[s.id] ? (
              <span className={styles.error} role="alert">
                {errors[s.id]}
              </span>
            ) : null}
          </span>
          {confirm === s.id ? (
            <span className={styles.confirm}>
              <span>The link stops working for everyone.</span>
              <button
                type="button"
                className="btn btn-small btn-danger"
                disabled={busy === s.id}
                onClick={() => void revoke(s)}
              >
                {busy === s.id ? "Revoking…" : "Revoke link"}
              </button>
              <button type="button" className="btn btn-small" onClick={() => setConfirm(null)}>
                Cancel
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="btn btn-small"
              aria-label={`Revoke ${s.title} (${s.url})`}
              onClick={() => setConfirm(s.id)}
            >
              Revoke…
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
