"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useFocusTrap } from "@/components/ui/use-focus-trap";
import styles from "./rules.module.css";

/** "Reject…": an optional reason (stored as the reviewer's comment); a failure shows here and the reason stays. */
export function RejectDialog({
  busy,
  error,
  onReject,
  onCancel,
}: {
  busy: boolean;
  error: string | null;
  onReject: (reason: string) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const form = useRef<HTMLFormElement>(null);
  useFocusTrap(form);
  const [reason, setReason] = useState("");
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <div className="modal-backdrop">
      <form
        ref={form}
        className={`modal ${styles.dialog}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === "Escape" && !busy) onCancel();
        }}
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) onReject(reason.trim());
        }}
      >
        <h2 id={titleId}>Reject this proposal?</h2>
        <p className="muted">The team rules stay as they are. The author sees your reason as a comment.</p>
        <label className={styles.field}>
          <span>Reason (optional)</span>
          <textarea
            ref={field}
            rows={3}
            value={reason}
            maxLength={10_000}
            disabled={busy}
            onChange={(e) => setReason(e.target.value)}
          />
        </label>
        {error ? (
          <p className="delete-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="delete-choices">
          <button type="button" className="btn" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {busy ? "Rejecting…" : "Reject"}
          </button>
        </div>
      </form>
    </div>
  );
}
