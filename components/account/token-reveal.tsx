"use client";

import { useRef, useState } from "react";
import styles from "./settings.module.css";

/** The ways to use a personal access token, with `token` (or a placeholder) and this server's `origin`. */
export function tokenUsage(origin: string, token: string): { cli: string; curl: string } {
  return {
    cli: `npx strata --server ${origin} --token ${token} session export <session-id>`,
    curl: `curl -H "Authorization: Bearer ${token}" ${origin}/api/me`,
  };
}

/** A read-only monospace value with a Copy button (clipboard API; falls back to selecting the text). */
export function CopyField({ value, label }: { value: string; label: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "select" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      input.current?.select();
      setCopied("select");
    }
  };
  return (
    <div className={styles.copyRow}>
      <input
        ref={input}
        className={`${styles.input} ${styles.copyInput}`}
        readOnly
        value={value}
        aria-label={label}
        onFocus={(e) => e.target.select()}
      />
      <button
        type="button"
        className="btn"
        onClick={() => void copy()}
        aria-label={`Copy ${label.toLowerCase()}`}
      >
        {copied === "yes" ? "Copied" : "Copy"}
      </button>
      <span className={styles.srOnly} role="status">
        {copied === "yes"
          ? "Copied to the clipboard"
          : copied === "select"
            ? "Selected; press Ctrl+C to copy"
            : ""}
      </span>
    </div>
  );
}

/** A freshly created token, shown this once, with how to use it. */
export function TokenReveal({
  name,
  token,
  origin,
  onDone,
}: {
  name: string;
  token: string;
  origin: string;
  onDone: () => void;
}) {
  const usage = tokenUsage(origin, token);
  return (
    <section className={styles.reveal} aria-label={`New token ${name}`}>
      <p className={styles.revealTitle}>
        Token “{name}” created. <strong>Copy it now — you will not see it again.</strong>
      </p>
      <CopyField value={token} label="New personal access token" />
      <p className={styles.hint}>Use it from the CLI or any HTTP client:</p>
      <pre className={styles.code}>{usage.cli}</pre>
      <pre className={styles.code}>{usage.curl}</pre>
      <div className={styles.revealActions}>
        <button type="button" className="btn" onClick={onDone}>
          I have copied it
        </button>
      </div>
    </section>
  );
}
