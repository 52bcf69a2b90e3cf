"use client";

import Link from "next/link";
import { useEffect } from "react";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import styles from "./merge.module.css";
import type { MergeResult } from "./merge-api";
import { ConflictEditor, MergeDiff } from "./merge-file-view";
import { type MergeReviewState, useMergeReview } from "./use-merge-review";

const KIND: Record<string, string> = {
  agent: "the agent's changes",
  user: "edits between turns",
  kept: "kept before a restore",
  revert: "a revert",
  restore: "a restore",
  recovery: "recovered after a stopped run",
  shell: "a !command",
};

/**
 * `/projects/:id/sessions/:sessionId/merge`: the review of merging a session into the project's main line — the files
 * it changes on main (Monaco diff of main's text and the merged text), its conflicts (resolved here: edit the text or
 * take a side), the session's checkpoints (what was done, by whom) — and the merge itself. Chosen texts are kept
 * while the page is open, whatever the merge answers.
 */
export function MergeReview({
  projectId,
  sessionId,
  projectName,
  sessionTitle,
  readOnly,
}: {
  projectId: string;
  sessionId: string;
  projectName: string;
  sessionTitle: string | null;
  readOnly: boolean;
}) {
  const state = useMergeReview(sessionId);
  const { review, error, merged } = state;
  useEffect(() => {
    document.title = `Merge ${sessionTitle ?? "untitled session"} · ${projectName} · Strata`;
  }, [projectName, sessionTitle]);
  const ideHref = `/projects/${encodeURIComponent(projectId)}`;
  return (
    <div className={styles.page}>
      <header className="workspace-header">
        <Link href="/" className="brand">
          Strata
        </Link>
        <span className="sep">/</span>
        <Link href={ideHref}>{projectName}</Link>
        <span className="sep">/</span>
        <h1 className="project-name">Merge “{sessionTitle ?? "untitled session"}” into main</h1>
      </header>
      {error ? (
        <Notice kind="error" title="Not merged">
          {error}
        </Notice>
      ) : null}
      {merged ? (
        <Notice
          kind="info"
          title="Merged into main"
          actions={<Link href={ideHref}>Back to the project</Link>}
        >
          {merged.commit
            ? `Main is now commit ${merged.commit.slice(0, 8)}: ${merged.files.length} file${merged.files.length === 1 ? "" : "s"} changed. New sessions start from it; this session keeps its own files.`
            : "Main already holds everything this session changed: nothing to merge."}
        </Notice>
      ) : null}
      {!review && !error ? <Spinner label="Comparing the session with main" /> : null}
      {review && !merged ? (
        <div className={styles.body}>
          <MergeSidebar state={state} review={review} />
          <MergeMain state={state} review={review} readOnly={readOnly} />
        </div>
      ) : null}
    </div>
  );
}

/** The files the merge changes (conflicts first) and the session's checkpoints. */
function MergeSidebar({ state, review }: { state: MergeReviewState; review: MergeResult }) {
  const { conflicts } = review;
  const total = review.files.length + conflicts.length;
  const item = (path: string, tag: string, tagClass: string | undefined, key: string) => (
    <li key={key}>
      <button type="button" aria-current={state.selected === path} onClick={() => state.select(path)}>
        <span className={tagClass}>{tag}</span>
        {path}
      </button>
    </li>
  );
  return (
    <aside className={styles.side} aria-label="What the merge changes">
      <h2 className={styles.heading}>
        {total === 0
          ? "Nothing to merge: main already has this session's files."
          : `${total} file${total === 1 ? "" : "s"} · ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}`}
      </h2>
      <ul className={styles.files}>
        {conflicts.map((c) =>
          c.path in state.resolutions
            ? item(c.path, "resolved", styles.resolvedTag, `c:${c.path}`)
            : item(c.path, "conflict", styles.conflictTag, `c:${c.path}`),
        )}
        {review.files.map((f) => item(f.path, f.status, styles.tag, `f:${f.path}`))}
      </ul>
      <h2 className={styles.heading}>The session's checkpoints</h2>
      <ol className={styles.commits}>
        {review.checkpoints.map((c) => (
          <li key={c.commitOid}>
            <span className="mono">{c.commitOid.slice(0, 8)}</span> {KIND[c.kind] ?? c.kind}
            {c.authorName ? ` · ${c.authorName}` : ""} · {c.paths.join(", ")}
          </li>
        ))}
        {review.checkpoints.length === 0 ? <li className="muted">None yet.</li> : null}
      </ol>
    </aside>
  );
}

/** The merge button with why it is disabled, and the selected file: its diff, or its conflict to resolve. */
function MergeMain({
  state,
  review,
  readOnly,
}: {
  state: MergeReviewState;
  review: MergeResult;
  readOnly: boolean;
}) {
  const { selected, open, merging } = state;
  const file = review.files.find((f) => f.path === selected);
  const conflict = review.conflicts.find((c) => c.path === selected);
  const empty = review.files.length + review.conflicts.length === 0;
  return (
    <section className={styles.main} aria-label={selected ?? "No file"}>
      <div className={styles.actions}>
        <button
          type="button"
          className="btn btn-primary"
          disabled={readOnly || merging || open.length > 0 || empty}
          onClick={() => void state.merge()}
        >
          {merging ? "Merging…" : "Merge into main"}
        </button>
        <span className="muted">
          {readOnly
            ? "Your role can read this review but not merge."
            : open.length > 0
              ? `Resolve ${open.length} conflict${open.length === 1 ? "" : "s"} first.`
              : "Main changes only by this merge; every other session keeps its own files."}
        </span>
      </div>
      {selected ? <h2 className={styles.heading}>{selected}</h2> : null}
      {conflict ? (
        <ConflictEditor
          conflict={conflict}
          resolution={state.resolutions[conflict.path]}
          onResolve={(text) => state.resolve(conflict.path, text)}
        />
      ) : file ? (
        <MergeDiff path={file.path} before={file.before} after={file.after} />
      ) : null}
    </section>
  );
}
