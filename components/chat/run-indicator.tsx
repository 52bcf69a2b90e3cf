import styles from "./run-indicator.module.css";
import { type LiveRun, runLabel } from "./run-label";

/**
 * The live run on the session bar, labelled by its kind ("Agent is running", "Shell command running",
 * "Compacting…", "Summarising branch…"): `here` (this tab started it, also before a reload) or `remote` (another
 * tab started it; this tab follows its event stream).
 */
export function RunIndicator({ live, run }: { live: "here" | "remote"; run: LiveRun | null }) {
  const label = runLabel(run);
  return (
    <span className={styles.live} role="status" aria-label={label}>
      <span className={styles.dot} aria-hidden="true" />
      {label}
      {live === "remote" ? <span className={styles.where}>· started elsewhere</span> : null}
    </span>
  );
}
