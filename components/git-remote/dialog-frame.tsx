"use client";

import { type ReactNode, type RefObject, useEffect, useId, useRef } from "react";
import { useFocusTrap } from "@/components/ui/use-focus-trap";

/**
 * The frame of the Download, Push and Pull dialogs: a modal form with a title, its fields, and Close plus the
 * dialog's action (`submit`, disabled while `busy` or `!ready`). Escape closes it unless an operation runs —
 * wherever focus is: the action button is disabled while it runs, and a disabled button loses focus to the page,
 * so after a download Escape reached no handler of the form. A modal (`useFocusTrap`): focus stays in it and goes back to `returnFocusTo` (default: the opener) on close.
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
  const latest = useRef({ busy, onClose });
  latest.current = { busy, onClose };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !latest.current.busy) latest.current.onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <div className="modal-backdrop">
      <form
        ref={form}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
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
