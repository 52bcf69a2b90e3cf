import type { ReactNode } from "react";
import styles from "./auth.module.css";

/**
 * A full-page message in the sign-in card style: an icon badge (`tone`), a title, what happened and what to do
 * next (`children`), and `actions` (links or buttons). Used by the error page and the 401 / 403 notices.
 */
export function StatusPage({
  tone,
  code,
  title,
  children,
  actions,
}: {
  tone: "error" | "warning" | "info";
  /** A short label over the title ("401", "403", "Error"). */
  code?: string;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <main className={styles.page}>
      <div className={styles.column}>
        <a href="/" className={styles.logo} aria-label="Strata home">
          <span className={styles.logoMark} aria-hidden="true" />
          <span>Strata</span>
        </a>
        <section
          className={styles.card}
          aria-labelledby="status-title"
          role={tone === "error" ? "alert" : undefined}
        >
          {code ? <p className={`${styles.statusCode} ${styles[`tone-${tone}`]}`}>{code}</p> : null}
          <h1 id="status-title" className={styles.title}>
            {title}
          </h1>
          <div className={styles.statusBody}>{children}</div>
          <div className={styles.statusActions}>{actions}</div>
        </section>
      </div>
    </main>
  );
}
