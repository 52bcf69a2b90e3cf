"use client";

import { type ReactNode, type RefObject, useId, useRef } from "react";
import { useFocusTrap } from "@/components/ui/use-focus-trap";

/**
 * The frame of the Download, Push and Pull dialogs: a modal form with a title, its fields, and Close plus the
 * dialog's action (`submit`, disabled while `busy` or `!ready`). Escape closes it unless an operation runs. A
 * modal (`useFocusTrap`): focus stays in it and goes back to `returnFocusTo` (default: the opener) on close.
 */
export function DialogFrame({
  title,
  busy,
  ready,
  submitLabel,
  busyLabel,
  onSubmit,
  onClose,
  children,
  returnFocusTo,
}: {
  title: string;
  busy: boolean;
  ready: boolean;
  submitLabel: string;
  busyLabel: string;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
  /** Where focus goes on close when the opener is gone (a menu item); default: the opener. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const titleId = useId();
  const form = useRef<HTMLFormElement>(null);
  useFocusTrap(form, { returnFocusTo });
  return (
    <div className="modal-backdrop">
      <form
        ref={form}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === "Escape" && !busy) onClose();
        }}
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy && ready) onSubmit();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        <div className="delete-choices">
          <button type="button" className="btn" disabled={busy} onClick={onClose}>
            Close
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !ready}>
            {busy ? busyLabel : submitLabel}
          </button>
        </div>
      </form>
    </div>
  );
}
