"use client";

import { ChangeCounts, PathLabel, StatusLetter } from "@/components/diff/change-bits";
import styles from "@/components/diff/diff.module.css";
import { Notice } from "@/components/ui/notice";
import type { StandingRevert, TurnChanges } from "./checkpoints-client";
import { joinPaths, revertedPaths, totals } from "./turn-changes-view";
import type { TurnFeedback } from "./use-turn-changes";

/**
 * Under an assistant turn that changed files: each file with its status and `+/-` counts (a link to the diff view at
 * that file), "View diff", "Revert turn" and per-file "Revert" (not while `busy`, none when `readOnly`), and what the
 * last revert of this turn said. A file whose revert stands (after a reload too) is marked "reverted" and offers
 * "Undo revert" instead; when some are, the head says how many and offers no "Revert turn" (it would revert them
 * again: the others are reverted one by one); when every file is, the turn says so and offers the undo in its head.
 */
export function TurnSummary({
  turn,
  feedback,
  reverting,
  busy,
  readOnly,
  onOpen,
  onRevert,
  onUndoRevert,
}: {
  turn: TurnChanges;
  feedback: TurnFeedback | null;
  /** The revert going on (see `TurnChangesApi.reverting`), or null. */
  reverting: string | null;
  busy: boolean;
  readOnly: boolean;
  onOpen: (path?: string) => void;
  onRevert: (path?: string) => void;
  onUndoRevert: (standing: StandingRevert) => void;
}) {
  const n = turn.files.length;
  const sum = totals(turn.files);
  const id = turn.userEntryId;
  const disabled = busy || reverting !== null;
  const reverts = turn.reverts ?? [];
  const revertOf = revertedPaths(reverts);
  const standingOf = (path: string) => {
    const i = revertOf.get(path);
    return i === undefined ? undefined : reverts[i];
  };
  const allReverted = n > 0 && turn.files.every((f) => revertOf.has(f.path));
  const undoing = (standing: StandingRevert) => reverting === `${id}:undo:${standing.entryId}`;
  const undoButton = (standing: StandingRevert, label: string) => (
    <button
      type="button"
      className="btn btn-small"
      disabled={disabled}
      aria-busy={undoing(standing)}
      aria-label={label}
      title={`Give ${joinPaths(standing.paths)} this turn's changes back`}
      onClick={() => onUndoRevert(standing)}
    >
      {undoing(standing) ? "Undoing…" : "Undo revert"}
    </button>
  );
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
        {allReverted ? (
          <span className={styles.revertedTag}>Reverted</span>
        ) : revertOf.size > 0 ? (
          <span className={styles.revertedTag}>
            {revertOf.size} of {n} reverted
          </span>
        ) : null}
        {readOnly || (!allReverted && revertOf.size > 0) ? null : allReverted ? (
          reverts.length === 1 ? (
            undoButton(reverts[0], "Undo revert of this turn")
          ) : null
        ) : (
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
            {standingOf(f.path) ? <span className={styles.revertedTag}>reverted</span> : null}
            {readOnly ? null : standingOf(f.path) ? (
              allReverted && reverts.length === 1 ? null : (
                undoButton(standingOf(f.path)!, `Undo revert of ${f.path}`)
              )
            ) : (
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
