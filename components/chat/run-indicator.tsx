import styles from "./run-indicator.module.css";

/**
 * "Agent is running" on the session bar while a run of the session is live: `here` (this tab started it) or
 * `remote` (another tab, or this tab before a reload; this tab follows its event stream).
 */
export function RunIndicator({ live }: { live: "here" | "remote" }) {
  return (
    <span className={styles.live} role="status" aria-label="Agent is running">
      <span className={styles.dot} aria-hidden="true" />
      Agent is running
      {live === "remote" ? <span className={styles.where}>· started elsewhere</span> : null}
    </span>
  );
}
