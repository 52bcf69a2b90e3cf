"use client";

import { ChangeCounts, PathLabel, StatusLetter } from "@/components/diff/change-bits";
import styles from "@/components/diff/diff.module.css";
import { Notice } from "@/components/ui/notice";
import type { TurnChanges } from "./checkpoints-client";
import { totals } from "./turn-changes-view";
import type { TurnFeedback } from "./use-turn-changes";

/**
 * Under an assistant turn that changed files: each file with its status and `+/-` counts (a link to the diff view at
 * that file), "View diff", "Revert turn" and per-file "Revert" (not while `busy`, none when `readOnly`), and what the
 * last revert of this turn said.
 */
export function TurnSummary({
  turn,
  feedback,
  reverting,
  busy,
  readOnly,
  onOpen,
  onRevert,
}: {
  turn: TurnChanges;
  feedback: TurnFeedback | null;
  /** The revert going on (see `TurnChangesApi.reverting`), or null. */
  reverting: string | null;
  busy: boolean;
  readOnly: boolean;
  onOpen: (path?: string) => void;
  onRevert: (path?: string) => void;
}) {
  const n = turn.files.length;
  const sum = totals(turn.files);
  const id = turn.userEntryId;
  const disabled = busy || reverting !== null;
  return (
    <section className={styles.summary} aria-label="Files changed in this turn" data-testid="turn-changes">
      <div className={styles.summaryHead}>
        <span className={styles.summaryTitle}>
          {n} file{n === 1 ? "" : "s"} changed
        </span>
        <span className={styles.counts}>
          <span className={styles.add}>+{sum.additions}</span>{" "}
          <span className={styles.del}>−{sum.deletions}</span>
        </span>
        <span className={styles.spacer} />
        <button type="button" className="btn btn-small" onClick={() => onOpen()}>
          View diff
        </button>
        {readOnly ? null : (
          <button
            type="button"
            className="btn btn-small"
            disabled={disabled}
            aria-busy={reverting === id}
            onClick={() => onRevert()}
          >
            {reverting === id ? "Reverting…" : "Revert turn"}
          </button>
        )}
      </div>
      <ul className={styles.summaryList}>
        {turn.files.map((f) => (
          <li key={f.path} className={styles.summaryRow} data-testid="turn-file" data-path={f.path}>
            <StatusLetter status={f.status} />
            <button
              type="button"
              className={styles.linkButton}
              title={`Show the diff of ${f.path}`}
              onClick={() => onOpen(f.path)}
            >
              <PathLabel path={f.path} />
            </button>
            <ChangeCounts file={f} />
            {readOnly ? null : (
              <button
                type="button"
                className="btn btn-small"
                disabled={disabled}
                aria-label={`Revert ${f.path}`}
                title={`Revert ${f.path} to what it was before this turn`}
                onClick={() => onRevert(f.path)}
              >
                {reverting === `${id}:${f.path}` ? "Reverting…" : "Revert"}
              </button>
            )}
          </li>
        ))}
      </ul>
      {feedback?.turnId === id ? (
        <div className={styles.summaryNotice}>
          <Notice kind={feedback.kind} title={feedback.kind === "error" ? "Revert failed" : undefined}>
            {feedback.text}
          </Notice>
        </div>
      ) : null}
    </section>
  );
}
