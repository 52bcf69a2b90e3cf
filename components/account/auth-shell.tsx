import type { ReactNode } from "react";
import styles from "./auth.module.css";

/**
 * The frame of the sign-in and sign-up pages: the Strata mark, a centred card with `title` and `subtitle`, the
 * form (`children`) and a `footer` line under the card (the link to the other page).
 */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className={styles.page}>
      <div className={styles.column}>
        <a href="/" className={styles.logo} aria-label="Strata home">
          <span className={styles.logoMark} aria-hidden="true" />
          <span>Strata</span>
        </a>
        <section className={styles.card} aria-labelledby="auth-title">
          <h1 id="auth-title" className={styles.title}>
            {title}
          </h1>
          {subtitle ? <p className={styles.subtitle}>{subtitle}</p> : null}
          {children}
        </section>
        {footer ? <p className={styles.footer}>{footer}</p> : null}
      </div>
    </main>
  );
}

/** An inline error under a form, announced to screen readers. */
export function FormError({ message, children }: { message: string | null; children?: ReactNode }) {
  if (!message) return null;
  return (
    <div className={styles.error} role="alert">
      <span className={styles.errorIcon} aria-hidden="true">
        !
      </span>
      <span>
        {message}
        {children}
      </span>
    </div>
  );
}
