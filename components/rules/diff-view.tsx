"use client";

import styles from "./rules.module.css";
import type { ProposalDiffFile } from "./rules-api";

export type DiffLineKind = "add" | "del" | "context" | "hunk" | "meta";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** Line number in the old file (context and removed lines). */
  oldLine?: number;
  /** Line number in the new file (context and added lines). */
  newLine?: number;
}

/**
 * The lines of a unified diff to show: file headers (`===`, `---`, `+++`, `Index:`) dropped, `@@` hunks with
 * line numbers counted from their header, `\ No newline at end of file` kept as a meta line.
 */
export function parsePatch(patch: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      out.push({ kind: "hunk", text: line });
    } else if (!inHunk) {
      // Headers before the first hunk.
    } else if (line.startsWith("+")) {
      out.push({ kind: "add", text: line, newLine: newNo++ });
    } else if (line.startsWith("-")) {
      out.push({ kind: "del", text: line, oldLine: oldNo++ });
    } else if (line.startsWith("\\")) {
      out.push({ kind: "meta", text: line });
    } else {
      out.push({ kind: "context", text: line, oldLine: oldNo++, newLine: newNo++ });
    }
  }
  return out;
}

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
