"use client";

import { type DiffLineKind, parsePatch } from "./diff-lines";
import styles from "./rules.module.css";
import type { ProposalDiffFile } from "./rules-api";

const CLASS: Record<DiffLineKind, string> = {
  add: styles.diffAdd,
  del: styles.diffDel,
  hunk: styles.diffHunk,
  meta: styles.diffMeta,
  context: "",
};

const STATUS: Record<string, string> = { added: "added", modified: "modified", deleted: "deleted" };

/** One file of a proposal's diff: path, status and the patch with added/removed lines coloured. */
export function DiffFile({ file }: { file: ProposalDiffFile }) {
  const lines = parsePatch(file.patch);
  return (
    <section className={styles.diffFile} aria-label={`Diff of ${file.path}`}>
      <div className={styles.diffHeader}>
        <span className="mono">{file.path}</span>
        <span
          className={`badge ${file.status === "deleted" ? styles.status_rejected : styles.status_approved}`}
        >
          {STATUS[file.status] ?? file.status}
        </span>
        <span className="muted">
          +{lines.filter((l) => l.kind === "add").length} −{lines.filter((l) => l.kind === "del").length}
        </span>
      </div>
      {lines.length === 0 ? (
        <p className={`muted ${styles.diffLine}`}>No textual change (an empty file, or only its mode).</p>
      ) : (
        <pre className={styles.diffBody} data-testid={`diff-${file.path}`}>
          {lines.map((l, i) => (
            <code
              // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable patch
              key={i}
              className={`${styles.diffLine} ${CLASS[l.kind]}`}
              data-kind={l.kind}
            >
              <span className={styles.gutter}>{l.oldLine ?? ""}</span>
              <span className={styles.gutter}>{l.newLine ?? ""}</span>
              {l.text || " "}
            </code>
          ))}
        </pre>
      )}
    </section>
  );
}
