import type { ReactNode } from "react";
import styles from "./settings.module.css";

/** One section of the settings page: a titled card (`id` is the nav anchor) with an optional footer bar. */
export function SettingsCard({
  id,
  title,
  description,
  children,
  footer,
  danger,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  danger?: boolean;
}) {
  return (
    <section
      id={id}
      className={`${styles.card} ${danger ? styles.cardDanger : ""}`}
      aria-labelledby={`${id}-title`}
    >
      <div className={styles.cardBody}>
        <h2 id={`${id}-title`} className={styles.cardTitle}>
          {title}
        </h2>
        {description ? <p className={styles.cardDescription}>{description}</p> : null}
        {children}
      </div>
      {footer ? <div className={styles.cardFooter}>{footer}</div> : null}
    </section>
  );
}

/** A one-line status after an action: success (polite) or error (an alert). */
export function StatusLine({ status }: { status: { kind: "ok" | "error"; text: string } | null }) {
  if (!status) return <span />;
  return status.kind === "ok" ? (
    <span className={styles.ok} role="status">
      {status.text}
    </span>
  ) : (
    <span className={styles.errorText} role="alert">
      {status.text}
    </span>
  );
}

/** A labelled input of a settings form, its hint (if any) tied to it by `aria-describedby`. */
export function Field({
  id,
  label,
  hint,
  className,
  ...input
}: {
  id: string;
  label: string;
  hint?: string;
  className?: string;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={`${styles.field} ${className ?? ""}`}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input id={id} className={styles.input} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint ? (
        <span id={`${id}-hint`} className={styles.hint}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}
