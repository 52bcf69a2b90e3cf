"use client";

import { useEffect, useRef, useState } from "react";
import { describeError, type SessionSummary } from "@/components/api-client";
import styles from "@/components/projects/lifecycle.module.css";
import { type DeletedSession, deleteSession, renameSession } from "@/components/projects/lifecycle-client";
import { ConfirmDeleteDialog, RenameDialog } from "@/components/projects/lifecycle-dialogs";
import { ShareDialog } from "@/components/share/share-dialog";

/** Longest session name (the server's limit, lib/session/lifecycle.ts `MAX_SESSION_TITLE_LENGTH`). */
const MAX_TITLE = 200;

/** What deleting a session removes, in words (the confirmation's text). */
export function sessionDeleteText(sessionId: string): string {
  return `Its conversation (every branch), its queued messages and its checkpoint branch strata/session-${sessionId} will be deleted. The project's files stay as they are. This cannot be undone.`;
}

type Open = "menu" | "rename" | "share" | "delete" | null;

/**
 * The "⋯" menu of the current session: "Rename…" (stored as pi's `session_info`, so an export keeps the name),
 * "Share…" (the share dialog for the branch ending at the session's current leaf), "Review and merge into main…" and "Bring main's changes into this session…" (the
 * merge review page in either direction, docs/checkpoints.md) and "Delete…" (a confirmation
 * naming the session and what goes with it). Failures show in the dialog.
 */
export function SessionActions({
  session,
  label,
  disabled,
  onRenamed,
  onDeleted,
}: {
  session: SessionSummary;
  /** The name the picker shows for it. */
  label: string;
  disabled: boolean;
  onRenamed: (session: SessionSummary) => void;
  onDeleted: (deleted: DeletedSession) => void;
}) {
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const wrap = useRef<HTMLSpanElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  /** The "⋯" button: the dialogs give focus back to it (the menu item that opened them is gone by then). */
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (open !== "menu") return;
    first.current?.focus();
    const close = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(null);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  const show = (next: Open) => {
    setError(null);
    setOpen(next);
  };
  const run = async (action: () => Promise<void>, what: string) => {
    setBusy(true);
    try {
      await action();
      setOpen(null);
    } catch (err) {
      setError(`Could not ${what} “${label}”: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className={styles.menuWrap} ref={wrap}>
      <button
        ref={trigger}
        type="button"
        className="btn btn-small"
        aria-label="Session actions"
        aria-haspopup="menu"
        aria-expanded={open === "menu"}
        title="Rename, share, merge or delete this session"
        disabled={disabled}
        onClick={() => show(open === "menu" ? null : "menu")}
      >
        ⋯
      </button>
      {open === "menu" ? (
        <div
          className={styles.menu}
          role="menu"
          aria-label="Session actions"
          onKeyDown={(e) => {
            if (e.key === "Escape") setOpen(null);
          }}
        >
          <button ref={first} type="button" role="menuitem" onClick={() => show("rename")}>
            Rename session…
          </button>
          <button type="button" role="menuitem" onClick={() => show("share")}>
            Share…
          </button>
          <a
            role="menuitem"
            href={`/projects/${encodeURIComponent(session.projectId)}/sessions/${encodeURIComponent(session.id)}/merge`}
          >
            Review and merge into main…
          </a>
          <a
            role="menuitem"
            href={`/projects/${encodeURIComponent(session.projectId)}/sessions/${encodeURIComponent(session.id)}/merge?from=main`}
          >
            Bring main's changes into this session…
          </a>
          <button type="button" role="menuitem" className={styles.danger} onClick={() => show("delete")}>
            Delete session…
          </button>
        </div>
      ) : null}
      {open === "rename" ? (
        <RenameDialog
          title="Rename session"
          label="Session name"
          initial={session.title?.trim() || label}
          maxLength={MAX_TITLE}
          hint="Saved in the session as pi's session name, so an exported file keeps it."
          busy={busy}
          error={error}
          onSave={(title) =>
            void run(async () => onRenamed(await renameSession(session.id, title)), "rename")
          }
          onCancel={() => setOpen(null)}
          returnFocusTo={trigger}
        />
      ) : null}
      {open === "share" ? (
        <ShareDialog
          sessionId={session.id}
          leafId={null}
          returnFocusTo={trigger}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open === "delete" ? (
        <ConfirmDeleteDialog
          title="Delete session?"
          subject={label}
          confirmLabel="Delete session"
          busy={busy}
          error={error}
          onConfirm={() => void run(async () => onDeleted(await deleteSession(session.id)), "delete")}
          onCancel={() => setOpen(null)}
          returnFocusTo={trigger}
        >
          <p>{sessionDeleteText(session.id)}</p>
        </ConfirmDeleteDialog>
      ) : null}
    </span>
  );
}
