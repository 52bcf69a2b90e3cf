"use client";

import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from "react";
import { useFocusTrap } from "@/components/ui/use-focus-trap";
import styles from "./lifecycle.module.css";

/**
 * Confirmation for deleting a session, a project or a tree entry (components/tree/delete-entry.tsx): names
 * what goes (`subject`, then `children` saying exactly what is removed), Cancel has the focus, Escape or
 * Cancel closes it, and a failure is shown in the dialog itself. Both dialogs here are modal (`useFocusTrap`).
 */
export function ConfirmDeleteDialog({
  title,
  subject,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
  children,
  returnFocusTo,
}: {
  title: string;
  subject: ReactNode;
  confirmLabel: string;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
  /** Where focus goes on close when the opener is gone (a menu item); default: the opener. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const titleId = useId();
  const bodyId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  useFocusTrap(dialog, { returnFocusTo });
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div className="modal-backdrop">
      <div
        ref={dialog}
        className="modal delete-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onKeyDown={(e) => {
          if (e.key === "Escape" && !busy) onCancel();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div id={bodyId}>
          <div className={styles.subject}>{subject}</div>
          {children}
          {error ? (
            <p className="delete-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <div className="delete-choices">
          <button ref={cancel} type="button" className="btn" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" disabled={busy} onClick={onConfirm}>
            {busy ? "Deleting…" : confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * A dialog asking for a new name: the field starts with `initial` selected; Rename (or Enter) calls `onSave`
 * with what was typed, disabled while it is blank or unchanged; Escape or Cancel closes it; a refusal from the
 * server (`error`) is shown under the field and the typed name stays.
 */
export function RenameDialog({
  title,
  label,
  initial,
  maxLength,
  hint,
  busy,
  error,
  onSave,
  onCancel,
  returnFocusTo,
}: {
  title: string;
  label: string;
  initial: string;
  maxLength: number;
  hint?: string;
  busy: boolean;
  error: string | null;
  onSave: (value: string) => void;
  onCancel: () => void;
  /** Where focus goes on close when the opener is gone (a menu item); default: the opener. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const titleId = useId();
  const inputId = useId();
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useFocusTrap(form, { returnFocusTo });
  useEffect(() => input.current?.select(), []);
  const blank = value.trim() === "";
  const unchanged = value.trim() === initial.trim();
  return (
    <div className="modal-backdrop">
      <form
        ref={form}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === "Escape" && !busy) onCancel();
        }}
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy && !blank && !unchanged) onSave(value);
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div className={styles.field}>
          <label htmlFor={inputId}>{label}</label>
          <input
            id={inputId}
            ref={input}
            value={value}
            maxLength={maxLength}
            disabled={busy}
            onChange={(e) => setValue(e.target.value)}
          />
          {hint ? <p className={styles.hint}>{hint}</p> : null}
        </div>
        {error ? (
          <p className="delete-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="delete-choices">
          <button type="button" className="btn" disabled={busy} onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || blank || unchanged}>
            {busy ? "Renaming…" : "Rename"}
          </button>
        </div>
      </form>
    </div>
  );
}
