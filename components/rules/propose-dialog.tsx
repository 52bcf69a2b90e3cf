"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useFocusTrap } from "@/components/ui/use-focus-trap";
import styles from "./rules.module.css";
import type { DraftChange } from "./rules-api";

/** A default title naming what the draft changes, e.g. "Update AGENTS.md" or "Update 3 rules files". */
export function defaultTitle(changes: DraftChange[]): string {
  if (changes.length === 1) {
    const c = changes[0];
    return `${c.content === null ? "Delete" : "Update"} ${c.path}`;
  }
  return `Update ${changes.length} rules files`;
}

/**
 * "Propose change…": title and description for a proposal carrying every changed file of the draft (listed);
 * a failure is shown in the dialog and both fields and the draft stay as typed.
 */
export function ProposeDialog({
  changes,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  changes: DraftChange[];
  busy: boolean;
  error: string | null;
  onSubmit: (title: string, description: string) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const form = useRef<HTMLFormElement>(null);
  useFocusTrap(form);
  const [title, setTitle] = useState(() => defaultTitle(changes));
  const [description, setDescription] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);
  const blank = title.trim() === "";
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
          if (!busy && !blank) onSubmit(title.trim(), description.trim());
        }}
      >
        <h2 id={titleId}>Propose a change to the team rules</h2>
        <p className="muted">
          An owner or admin reviews the diff and approves it (then it reaches every member&rsquo;s next
          request) or rejects it.
        </p>
        <label className={styles.field}>
          <span>Title</span>
          <input
            ref={input}
            type="text"
            value={title}
            maxLength={200}
            disabled={busy}
            onChange={(e) => setTitle(e.target.value)}
          />
        </label>
        <label className={styles.field}>
          <span>Description</span>
          <textarea
            rows={4}
            value={description}
            maxLength={10_000}
            disabled={busy}
            placeholder="Why this change? What should reviewers check?"
            onChange={(e) => setDescription(e.target.value)}
          />
        </label>
        <div className={styles.field}>
          <span>Files ({changes.length})</span>
          <ul className={styles.changeList}>
            {changes.map((c) => (
              <li key={c.path} className="mono">
                {c.content === null ? "deleted " : ""}
                {c.path}
              </li>
            ))}
          </ul>
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
          <button type="submit" className="btn btn-primary" disabled={busy || blank}>
            {busy ? "Proposing…" : "Propose"}
          </button>
        </div>
      </form>
    </div>
  );
}
