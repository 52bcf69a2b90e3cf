"use client";

import { useCallback, useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { apiJson, jsonInit } from "@/components/http/api-fetch";
import { Notice } from "@/components/ui/notice";
import type { MergeRequestView } from "@/lib/checkpoints/merge-requests";
import styles from "./merge.module.css";

const url = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/merge-request`;

const STATUS: Record<MergeRequestView["status"], string> = {
  open: "Waiting for approval",
  approved: "Approved and merged",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};

/**
 * The session's merge request on the review page (docs/checkpoints.md, "Approval in a team"): who asked and when,
 * its state, the comments, a comment box (members), and for owners and admins "Approve and merge" and "Reject".
 * `refreshKey` changes when this page made a request; `onDecided` runs after an approval merged main.
 */
export function MergeRequestPanel({
  sessionId,
  canDecide,
  readOnly,
  refreshKey,
  onDecided,
  currentTip,
}: {
  /** The session's work now (the review's tip): a request holding other work says so. */
  currentTip?: string | null;
  sessionId: string;
  canDecide: boolean;
  readOnly: boolean;
  refreshKey: unknown;
  onDecided: () => void;
}) {
  const [request, setRequest] = useState<MergeRequestView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const load = useCallback(
    () =>
      apiJson<{ request: MergeRequestView | null }>(url(sessionId)).then(
        (r) => setRequest(r.request),
        (err) => setError(`Could not load the merge request: ${describeError(err)}. Reload to try again.`),
      ),
    [sessionId],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey only triggers a reload
  useEffect(() => void load(), [load, refreshKey]);

  const send = async (action: "comment" | "approve" | "reject") => {
    setBusy(true);
    setError(null);
    try {
      const body =
        action === "comment"
          ? { action, comment }
          : { action, tip: request?.tipOid, ...(comment.trim() ? { comment } : {}) };
      const answer = await apiJson<{ request: MergeRequestView }>(url(sessionId), jsonInit("POST", body));
      setRequest(answer.request);
      setComment("");
      if (action === "approve") onDecided();
    } catch (err) {
      // The typed comment stays in the box.
      setError(`${action === "comment" ? "Not sent" : "Nothing decided"}: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };

  if (!request && !error) return null;
  const open = request?.status === "open";
  return (
    <section className={styles.request} aria-label="Merge request">
      {error ? <Notice kind="error">{error}</Notice> : null}
      {request ? (
        <>
          <h2 className={styles.heading}>
            {STATUS[request.status]} · asked by {request.authorName}
            {request.decidedByName ? ` · decided by ${request.decidedByName}` : ""}
            {request.mergedOid ? ` · commit ${request.mergedOid.slice(0, 8)}` : ""}
          </h2>
          {open && currentTip && currentTip !== request.tipOid ? (
            <Notice kind="warning">
              The session changed since this request: the files below are its work now, not what the request
              holds (commit {request.tipOid.slice(0, 8)}). Approving merges the request as it was asked.
            </Notice>
          ) : null}
          <ol className={styles.comments}>
            {request.comments.map((c) => (
              <li key={c.id}>
                <strong>{c.authorName}</strong>: {c.body}
              </li>
            ))}
          </ol>
          {readOnly ? null : (
            <div className={styles.commentBox}>
              <textarea
                aria-label="Comment"
                placeholder={open ? "Comment on this merge request" : "Comment"}
                value={comment}
                maxLength={10_000}
                onChange={(e) => setComment(e.target.value)}
              />
              <button
                type="button"
                className="btn"
                disabled={busy || !comment.trim()}
                onClick={() => void send("comment")}
              >
                Comment
              </button>
              {canDecide && open ? (
                <>
                  <button
                    type="button"
                    className="btn btn-primary"
                    disabled={busy}
                    onClick={() => void send("approve")}
                  >
                    Approve and merge
                  </button>
                  <button type="button" className="btn" disabled={busy} onClick={() => void send("reject")}>
                    Reject
                  </button>
                </>
              ) : null}
            </div>
          )}
        </>
      ) : null}
    </section>
  );
}
