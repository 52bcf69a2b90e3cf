"use client";

import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import styles from "./tree-ops.module.css";

/**
 * The inline field of a tree row being renamed (`mode` "rename": the name, its part before the extension
 * selected) or moved ("move": the whole project-relative path). Enter submits, Escape or leaving the field
 * cancels; `submit` resolves to an error message to show under the field (the field stays open) or null when
 * done.
 */
export function RenameField({
  mode,
  initial,
  indent,
  label,
  submit,
  onCancel,
}: {
  mode: "rename" | "move";
  initial: string;
  /** Left padding of the row, px. */
  indent: number;
  /** The input's accessible name, e.g. `Rename src/a.ts`. */
  label: string;
  submit: (value: string) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  useEffect(() => {
    const el = input.current;
    if (!el) return;
    el.focus();
    const dot = initial.lastIndexOf(".");
    const start = mode === "move" ? initial.lastIndexOf("/") + 1 : 0;
    el.setSelectionRange(start, mode === "rename" && dot > 0 ? dot : initial.length);
  }, [initial, mode]);
  const go = async () => {
    if (busy) return;
    setBusy(true);
    const message = await submit(value);
    setBusy(false);
    if (message) {
      setError(message);
      input.current?.focus();
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === "Enter") {
      e.preventDefault();
      void go();
    } else if (e.key === "Escape") {
      e.preventDefault();
      onCancel();
    }
  };
  return (
    <div className={styles.renameRow} style={{ paddingLeft: `${indent}px` }}>
      <input
        ref={input}
        type="text"
        className={styles.renameInput}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        value={value}
        disabled={busy}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          if (!busy && !error) onCancel();
        }}
        onClick={(e) => e.stopPropagation()}
      />
      {error ? (
        <p id={errorId} className={styles.renameError} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
