"use client";

import { useState } from "react";
import styles from "./teams.module.css";

/** A read-only field holding `value` (a link) with a Copy button; the field selects itself when focused. */
export function CopyField({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  return (
    <div className={styles.copyRow}>
      <input type="text" readOnly value={value} aria-label={label} onFocus={(e) => e.target.select()} />
      <button
        type="button"
        className="btn"
        onClick={() => {
          navigator.clipboard.writeText(value).then(
            () => setCopied("yes"),
            () => setCopied("failed"),
          );
        }}
      >
        {copied === "yes" ? "Copied" : "Copy"}
      </button>
      {copied === "failed" ? (
        <span className="hint" role="status">
          Copy was refused by the browser: select the link and copy it by hand.
        </span>
      ) : null}
    </div>
  );
}

/** A small "Copy link" button for a table row: says "Copied", or that the browser refused (the link is its tooltip). */
export function CopyButton({ value, label = "Copy link" }: { value: string; label?: string }) {
  const [state, setState] = useState<"copied" | "failed" | null>(null);
  return (
    <button
      type="button"
      className="btn btn-small"
      title={value}
      onClick={() => {
        navigator.clipboard.writeText(value).then(
          () => setState("copied"),
          () => setState("failed"),
        );
      }}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy refused: see tooltip" : label}
    </button>
  );
}
