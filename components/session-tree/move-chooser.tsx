"use client";

import { useEffect, useId, useRef, useState } from "react";
import { MOVE_CHOICES, type MoveInput, type MoveMode, moveAvailable, RESTORE_API } from "./move-client";
import styles from "./session-tree.module.css";

/** pi's branch-summary prompt after a `/tree` selection. */
type SummaryChoice = "none" | "summarize" | "custom";

/**
 * The choices of a move (after Enter on a node): what to restore (files and conversation, conversation only,
 * files only; those that change files are disabled until the server has the restore route) and pi's summary
 * prompt (no summary, summarize, summarize with a custom prompt). Enter on the Move button confirms, Escape
 * cancels; the Move button has the focus when it opens, so Enter twice moves without a summary as pi's default.
 */
export function MoveChooser({
  entryId,
  target,
  userMessage,
  busy,
  onMove,
  onCancel,
}: {
  entryId: string;
  /** The target's text, as the row shows it. */
  target: string;
  /** The target is a user or custom message: the leaf goes to its parent and its text to the composer. */
  userMessage: boolean;
  busy: boolean;
  onMove: (input: MoveInput) => void;
  onCancel: () => void;
}) {
  const [mode, setMode] = useState<MoveMode>("conversation");
  const [summary, setSummary] = useState<SummaryChoice>("none");
  const [focus, setFocus] = useState("");
  const moveButton = useRef<HTMLButtonElement>(null);
  const name = useId();
  useEffect(() => moveButton.current?.focus(), []);
  const summaryOff = mode === "files";
  const submit = () =>
    onMove({
      entryId,
      mode,
      summarize: !summaryOff && summary !== "none",
      customInstructions: !summaryOff && summary === "custom" ? focus.trim() || undefined : undefined,
    });
  return (
    <fieldset
      className={styles.chooser}
      aria-label="Move to this point"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <legend className={styles.chooserTitle}>
        Move to: <span className={styles.chooserTarget}>{target}</span>
      </legend>
      {userMessage ? (
        <p className="muted">
          The conversation goes back to just before this message; its text comes back to the composer.
        </p>
      ) : null}
      <div className={styles.choiceGroup} role="radiogroup" aria-label="What to restore">
        {MOVE_CHOICES.map((c) => (
          <label
            key={c.mode}
            title={moveAvailable(c.mode) ? c.hint : "Needs the restore API (not on this server yet)"}
          >
            <input
              type="radio"
              name={`${name}-mode`}
              checked={mode === c.mode}
              disabled={!moveAvailable(c.mode) || busy}
              onChange={() => setMode(c.mode)}
            />{" "}
            {c.label}
          </label>
        ))}
      </div>
      {!RESTORE_API ? (
        <p className="muted">Restoring files needs the restore API; only the conversation moves for now.</p>
      ) : null}
      <div className={styles.choiceGroup} role="radiogroup" aria-label="Summary of the branch you leave">
        {(
          [
            ["none", "No summary"],
            ["summarize", "Summarize"],
            ["custom", "Summarize with custom prompt"],
          ] as const
        ).map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name={`${name}-summary`}
              checked={summary === value}
              disabled={summaryOff || busy}
              onChange={() => setSummary(value)}
            />{" "}
            {label}
          </label>
        ))}
      </div>
      {summary === "custom" && !summaryOff ? (
        <textarea
          className={styles.focus}
          aria-label="Additional focus for the summary"
          placeholder="What the summary should focus on"
          value={focus}
          rows={2}
          onChange={(e) => setFocus(e.target.value)}
        />
      ) : null}
      <div className={styles.chooserActions}>
        <button
          ref={moveButton}
          type="button"
          className="btn btn-small btn-primary"
          disabled={busy}
          onClick={submit}
        >
          {busy ? (summary !== "none" && !summaryOff ? "Summarizing…" : "Moving…") : "Move"}
        </button>
        <button type="button" className="btn btn-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}

/**
 * An inline text input for a label or a name: Enter saves (the trimmed text; empty clears a label, as pi's
 * "Label (empty to remove):"), Escape cancels.
 */
export function InlineInput({
  label,
  initial,
  busy,
  onSave,
  onCancel,
}: {
  label: string;
  initial: string;
  busy: boolean;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  return (
    <form
      className={styles.inline}
      onSubmit={(e) => {
        e.preventDefault();
        onSave(text.trim());
      }}
    >
      <label>
        {label}{" "}
        <input
          // biome-ignore lint/a11y/noAutofocus: the input opens on the user's key or click
          autoFocus
          value={text}
          maxLength={200}
          disabled={busy}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              onCancel();
            }
          }}
        />
      </label>
      <button type="submit" className="btn btn-small" disabled={busy}>
        Save
      </button>
      <button type="button" className="btn btn-small" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
