"use client";

import { useState } from "react";
import { downloadBranch } from "@/components/share/share-api";
import { shareErrorMessage } from "@/components/share/view-model";
import styles from "./session-tree.module.css";
import type { TreeRow } from "./view-model";

/**
 * The tree's action bar for the selected node: Go here…, Fork, Download files (the point's commit as a .zip),
 * Label…, "Share this branch…" (the share dialog for the path ending at the node), and the branch's exports —
 * "Download conversation HTML" and "Download pi JSONL" (redacted as a share; nothing is published; fetched so that a
 * refusal shows as the tree's error, with what to do next) — then the keys.
 */
export function TreeActions({
  row,
  sessionId,
  projectId,
  canAct,
  readOnly,
  onMove,
  onFork,
  onLabel,
  onShare,
  onDownloaded,
  onError,
}: {
  row: TreeRow | undefined;
  sessionId: string;
  projectId?: string;
  canAct: boolean;
  readOnly: boolean;
  onMove: () => void;
  onFork: () => void;
  onLabel: () => void;
  onShare: (leafId: string) => void;
  onDownloaded: (fileName: string) => void;
  onError: (message: string) => void;
}) {
  const node = row?.node;
  const [downloading, setDownloading] = useState<"html" | "jsonl" | null>(null);
  const download = async (format: "html" | "jsonl") => {
    if (!node) return;
    setDownloading(format);
    try {
      onDownloaded(await downloadBranch(sessionId, node.id, format));
    } catch (err) {
      onError(shareErrorMessage("download", err));
    } finally {
      setDownloading(null);
    }
  };
  return (
    <div className={styles.actions}>
      <button
        type="button"
        className="btn btn-small btn-primary"
        disabled={!row || !canAct || row.isLeaf}
        onClick={onMove}
      >
        Go here…
      </button>
      <button type="button" className="btn btn-small" disabled={!row || !canAct} onClick={onFork}>
        {node?.type === "message" && node.role === "user" ? "Fork before this message" : "Fork from here"}
      </button>
      {projectId && node?.commit ? (
        <a
          className="btn btn-small"
          href={`/api/projects/${encodeURIComponent(projectId)}/archive?commit=${node.commit}`}
          download
          title={`The project's files at this point (commit ${node.commit.slice(0, 7)}) as a .zip`}
        >
          Download files
        </a>
      ) : null}
      <button type="button" className="btn btn-small" disabled={!row || !canAct} onClick={onLabel}>
        Label…
      </button>
      {readOnly ? null : (
        <button
          type="button"
          className="btn btn-small"
          disabled={!node}
          title="Preview and publish a read-only link to the conversation up to this point"
          onClick={() => node && onShare(node.id)}
        >
          Share this branch…
        </button>
      )}
      <button
        type="button"
        className="btn btn-small"
        disabled={!node || downloading !== null}
        title="The conversation up to this point as one HTML file, secrets redacted"
        onClick={() => void download("html")}
      >
        {downloading === "html" ? "Downloading…" : "Download conversation HTML"}
      </button>
      <button
        type="button"
        className="btn btn-small"
        disabled={!node || downloading !== null}
        title="The conversation up to this point as a pi session file, secrets redacted"
        onClick={() => void download("jsonl")}
      >
        {downloading === "jsonl" ? "Downloading…" : "Download pi JSONL"}
      </button>
      <span className={`muted ${styles.help}`}>
        ↑/↓ move · ←/→ page · Ctrl+←/→ fold/branch · Enter go · Shift+L label · Shift+T label time ·
        Ctrl+D/U/L/A filters · Ctrl+O cycle · type to search · Esc close
      </span>
    </div>
  );
}
