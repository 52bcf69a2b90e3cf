"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { formatDateTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { DiffFile } from "./diff-view";
import { PreviewDialog } from "./preview-dialog";
import { StatusBadge } from "./proposal-list";
import { RejectDialog } from "./reject-dialog";
import styles from "./rules.module.css";
import {
  approveProposal,
  authorLabel,
  commentOnProposal,
  getProposal,
  type ProposalDetail,
  rejectProposal,
  withdrawProposal,
} from "./rules-api";

export interface ProposalViewProps {
  workspaceId: string;
  proposalId: string;
  teamName: string;
  role: "owner" | "admin" | "member" | "viewer";
  userId: string;
}

type Dialog = "reject" | "preview" | null;

/**
 * One proposal: title, description, author and status, the diff per file, the comment thread; Approve / Reject for
 * owners and admins, Preview in a session / Withdraw for its author. Every failure is shown with the API's message
 * (a 409 conflict from Approve as it is) and typed text stays.
 */
export function ProposalView({ workspaceId, proposalId, teamName, role, userId }: ProposalViewProps) {
  const [detail, setDetail] = useState<ProposalDetail | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<{ title: string; text: string } | null>(null);
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [rejectError, setRejectError] = useState<string | null>(null);
  const rulesHref = `/teams/${encodeURIComponent(workspaceId)}/rules`;

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const d = await getProposal(workspaceId, proposalId, signal);
        setDetail(d);
        setLoadError(null);
        document.title = `${d.proposal.title} · Rules · ${teamName} · Strata`;
      } catch (err) {
        if (!signal?.aborted) setLoadError(describeError(err));
      }
    },
    [workspaceId, proposalId, teamName],
  );

  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  const act = async (title: string, run: () => Promise<unknown>, after?: string) => {
    setBusy(true);
    setActionError(null);
    try {
      await run();
      await load();
      return true;
    } catch (err) {
      setActionError({ title, text: `${describeError(err)}${after ? ` ${after}` : ""}` });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const header = (
    <header className="workspace-header">
      <Link href="/" className="brand">
        Strata
      </Link>
      <span className="sep">/</span>
      <Link href={`/teams/${encodeURIComponent(workspaceId)}`}>{teamName}</Link>
      <span className="sep">/</span>
      <Link href={rulesHref}>Team rules</Link>
      <span className="sep">/</span>
      <h1 className="project-name">Proposal</h1>
    </header>
  );

  if (!detail) {
    return (
      <div className={styles.proposalPage}>
        {header}
        <main className={styles.proposalMain}>
          {loadError ? (
            <Notice
              kind="error"
              title="Could not load this proposal"
              actions={
                <button type="button" className="btn btn-small" onClick={() => void load()}>
                  Retry
                </button>
              }
            >
              {loadError}. <Link href={rulesHref}>Back to the team rules</Link>.
            </Notice>
          ) : (
            <Spinner label="Loading proposal" />
          )}
        </main>
      </div>
    );
  }

  const { proposal: p, diff, comments } = detail;
  const open = p.status === "open";
  const reviewer = role === "owner" || role === "admin";
  const author = p.authorUserId === userId;
  const canComment = role !== "viewer";

  const postComment = async () => {
    const body = comment.trim();
    if (!body) return;
    setBusy(true);
    setCommentError(null);
    try {
      await commentOnProposal(workspaceId, proposalId, body);
      setComment("");
      await load();
    } catch (err) {
      setCommentError(`${describeError(err)}. Your comment is kept; try again.`);
    } finally {
      setBusy(false);
    }
  };

  const reject = async (reason: string) => {
    setBusy(true);
    setRejectError(null);
    try {
      await rejectProposal(workspaceId, proposalId, reason || undefined);
      setDialog(null);
      await load();
    } catch (err) {
      setRejectError(`${describeError(err)}. The proposal was not rejected.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.proposalPage}>
      {header}
      <main className={styles.proposalMain}>
        <div className={styles.proposalHeader}>
          <h1>{p.title}</h1>
          <StatusBadge status={p.status} />
        </div>
        <p className={styles.byline}>
          Proposed by <strong>{authorLabel(p)}</strong> · {formatDateTime(p.createdAt)}
          {p.decidedAt ? (
            <>
              {" · "}
              {p.status === "withdrawn" ? "withdrawn" : p.status}{" "}
              {p.decidedByName ? `by ${p.decidedByName} ` : ""}· {formatDateTime(p.decidedAt)}
            </>
          ) : null}
          {p.mergedOid ? <span className="mono"> · merged as {p.mergedOid.slice(0, 7)}</span> : null}
        </p>
        {p.description ? <p className={styles.description}>{p.description}</p> : null}
        {open && (reviewer || author) ? (
          <div className={styles.actionsRow}>
            {reviewer ? (
              <>
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy}
                  onClick={() =>
                    void act(
                      "Could not approve",
                      () => approveProposal(workspaceId, proposalId),
                      "Nothing was merged.",
                    )
                  }
                >
                  Approve and merge
                </button>
                <button
                  type="button"
                  className="btn btn-danger"
                  disabled={busy}
                  onClick={() => {
                    setRejectError(null);
                    setDialog("reject");
                  }}
                >
                  Reject…
                </button>
              </>
            ) : null}
            {author ? (
              <>
                <button type="button" className="btn" disabled={busy} onClick={() => setDialog("preview")}>
                  Preview in a session…
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={busy}
                  onClick={() => {
                    if (window.confirm("Withdraw this proposal? Reviewers can no longer approve it."))
                      void act("Could not withdraw", () => withdrawProposal(workspaceId, proposalId));
                  }}
                >
                  Withdraw
                </button>
              </>
            ) : null}
            {busy ? <Spinner label="Working" /> : null}
          </div>
        ) : null}
        {open && !reviewer ? (
          <p className="hint">An owner or admin of {teamName} reviews this proposal.</p>
        ) : null}
        {p.status === "approved" ? (
          <Notice kind="info" title="Merged">
            This change is in the team rules: every member&rsquo;s next request carries it.{" "}
            <Link href={rulesHref}>See the rules</Link>.
          </Notice>
        ) : null}
        {actionError ? (
          <Notice
            kind="error"
            title={actionError.title}
            actions={
              <button type="button" className="btn btn-small" onClick={() => setActionError(null)}>
                Dismiss
              </button>
            }
          >
            {actionError.text}
          </Notice>
        ) : null}

        <section className={styles.section} aria-label="Changes">
          <h2>
            Changes{" "}
            <span className="muted">
              {diff.length} file{diff.length === 1 ? "" : "s"}
            </span>
          </h2>
          {diff.length === 0 ? <p className="muted">This proposal changes no file.</p> : null}
          {diff.map((f) => (
            <DiffFile key={f.path} file={f} />
          ))}
        </section>

        <section className={styles.section} aria-label="Comments">
          <h2>
            Comments <span className="muted">{comments.length}</span>
          </h2>
          {comments.length === 0 ? <p className="muted">No comments yet.</p> : null}
          <ul className={styles.comments}>
            {comments.map((c) => (
              <li key={c.id} className={styles.comment}>
                <div className={styles.commentMeta}>
                  <strong>{authorLabel(c)}</strong> · {formatDateTime(c.createdAt)}
                </div>
                <div className={styles.commentBody}>{c.body}</div>
              </li>
            ))}
          </ul>
          {canComment ? (
            <form
              className={styles.commentForm}
              onSubmit={(e) => {
                e.preventDefault();
                void postComment();
              }}
            >
              <textarea
                aria-label="Comment"
                rows={3}
                value={comment}
                maxLength={10_000}
                placeholder="Leave a comment for the author and reviewers"
                onChange={(e) => setComment(e.target.value)}
              />
              {commentError ? (
                <p className="delete-error" role="alert">
                  {commentError}
                </p>
              ) : null}
              <button type="submit" className="btn btn-small" disabled={busy || !comment.trim()}>
                Comment
              </button>
            </form>
          ) : (
            <p className="hint">Viewers read the discussion; members and above can comment.</p>
          )}
        </section>
      </main>
      {dialog === "reject" ? (
        <RejectDialog
          busy={busy}
          error={rejectError}
          onReject={(r) => void reject(r)}
          onCancel={() => setDialog(null)}
        />
      ) : null}
      {dialog === "preview" ? (
        <PreviewDialog
          workspaceId={workspaceId}
          proposalId={proposalId}
          userId={userId}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </div>
  );
}
