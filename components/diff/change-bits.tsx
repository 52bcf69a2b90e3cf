import type { FileChange } from "@/components/chat/checkpoints-client";
import { statusLetter } from "@/components/chat/turn-changes-view";
import styles from "./diff.module.css";

/** The git-style status letter of a change (A, M, D), colored, its word as the title. */
export function StatusLetter({ status }: { status: FileChange["status"] }) {
  const letter = statusLetter(status);
  return (
    <abbr className={`${styles.status} ${styles[`status${letter}`]}`} title={status}>
      {letter}
    </abbr>
  );
}

/** `+3 −1` in green and red; `binary` or `large` muted when there are no counts. */
export function ChangeCounts({ file }: { file: FileChange }) {
  if (file.binary || file.additions === null || file.deletions === null)
    return (
      <span className={`${styles.counts} ${styles.muted}`} data-testid="change-counts">
        {file.binary ? "binary" : "large"}
      </span>
    );
  return (
    <span className={styles.counts} data-testid="change-counts">
      <span className={styles.add}>+{file.additions}</span>{" "}
      <span className={styles.del}>−{file.deletions}</span>
    </span>
  );
}

/** A path with its folder muted and its name plain. */
export function PathLabel({ path }: { path: string }) {
  const cut = path.lastIndexOf("/");
  return (
    <span className={styles.path} title={path}>
      {cut >= 0 ? <span className={styles.dir}>{path.slice(0, cut + 1)}</span> : null}
      {path.slice(cut + 1)}
    </span>
  );
}
