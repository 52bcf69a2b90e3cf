"use client";

import type { CSSProperties } from "react";
import { formatDateTime } from "@/components/ui/format";
import styles from "./session-tree.module.css";
import { nodeKind, nodeText, type TreeRow } from "./view-model";

const KIND_LABELS: Record<string, string> = {
  user: "user",
  assistant: "assistant",
  tool: "tool",
  bash: "bash",
  system: "system",
  "branch-summary": "branch summary",
  compaction: "compaction",
  custom: "custom",
  settings: "settings",
};

/**
 * One row of the tree, as pi draws it: cursor `›`, the gutter, a root's fold mark, the path marker `•`, the label
 * (and its time), the kind's badge, the text, a checkpoint's `◆` and the leaf's `← active`. An option of the
 * listbox that has the focus (it handles the keys); a click selects, a double click goes there.
 */
export function TreeRowView({
  row,
  id,
  selected,
  showLabelTime,
  style,
  onClick,
  onDoubleClick,
}: {
  row: TreeRow;
  id: string;
  selected: boolean;
  showLabelTime: boolean;
  style: CSSProperties;
  onClick: () => void;
  onDoubleClick: () => void;
}) {
  const { node } = row;
  const kind = nodeKind(node);
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: the listbox has the focus (aria-activedescendant), not its options
    // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox's keys move and select
    <div
      id={id}
      role="option"
      aria-selected={selected}
      aria-current={row.isLeaf ? "true" : undefined}
      data-entry-id={node.id}
      className={`${styles.row}${selected ? ` ${styles.selected}` : ""}${row.onPath ? ` ${styles.onPath}` : ""}`}
      style={style}
      title={`${node.id} · ${formatDateTime(node.timestamp)}`}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      onDoubleClick={onDoubleClick}
    >
      <span className={styles.cursor}>{selected ? "›" : ""}</span>
      <span className={styles.prefix}>{row.prefix}</span>
      {row.foldMark ? <span className={styles.mark}>{row.foldMark}</span> : null}
      {row.onPath ? <span className={styles.mark}>• </span> : null}
      {node.label ? <span className={styles.label}>[{node.label}] </span> : null}
      {showLabelTime && node.label && node.labelTimestamp ? (
        <span className="muted">{formatDateTime(node.labelTimestamp)} </span>
      ) : null}
      <span className={`${styles.kind} ${styles[`kind-${kind}`] ?? ""}`}>{KIND_LABELS[kind]}</span>
      <span className={styles.text}>{nodeText(node)}</span>
      {row.checkpoint ? (
        <span className={styles.checkpoint} title="Checkpoint: files changed here">
          ◆
        </span>
      ) : null}
      {row.isLeaf ? <span className={styles.active}> ← active</span> : null}
    </div>
  );
}
