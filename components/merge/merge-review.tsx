"use client";

import Link from "next/link";
import { useEffect } from "react";
import { sessionLabel } from "@/components/chat/session-bar";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import styles from "./merge.module.css";
import type { MergeDirection, ReviewResult } from "./merge-api";
import { ConflictEditor, hasConflictMarkers, MergeDiff } from "./merge-file-view";
import { MergeRequestPanel } from "./merge-request-panel";
import { type MergeReviewState, useMergeReview } from "./use-merge-review";

const KIND: Record<string, string> = {
  agent: "the agent's changes",
  user: "edits between turns",
  kept: "kept before a restore",
  revert: "a revert",
  restore: "a restore",
  recovery: "recovered after a stopped run",
  shell: "a !command",
  pull: "main brought in",
};

/** What the merge button says when a member's merge waits for approval. */
const ASK = {
  button: "Ask for approval",
  busy: "Asking…",
  safe: "An owner or admin of the team approves this merge before main changes.",
};

/** What the page says in each direction (the session's title in `{t}`). */
const COPY: Record<
  MergeDirection,
  {
    heading: string;
    docTitle: string;
    button: string;
    busy: string;
    computing: string;
    safe: string;
    done: string;
    doneText: (commit: string, files: number) => string;
    nothing: string;
    empty: string;
  }
> = {
  "into-main": {
    heading: "Merge “{t}” into main",
    docTitle: "Merge {t}",
    button: "Merge into main",
    busy: "Merging…",
    computing: "Comparing the session with main",
    safe: "Main changes only by this merge; every other session keeps its own files.",
    done: "Merged into main",
    doneText: (commit, n) =>
      `Main is now commit ${commit}: ${n} file${n === 1 ? "" : "s"} changed. New sessions start from it; this session keeps its own files.`,
    nothing: "Main already holds everything this session changed: nothing to merge.",
    empty: "Nothing to merge: main already has this session's files.",
  },
  "from-main": {
    heading: "Bring main's changes into “{t}”",
    docTitle: "Update {t} from main",
    button: "Bring into this session",
    busy: "Bringing in…",
    computing: "Comparing main with the session",
    safe: "Only this session's files change; main and every other session stay as they are.",
    done: "Main's changes are in this session",
    doneText: (commit, n) =>
      `The session's files are now commit ${commit}: ${n} file${n === 1 ? "" : "s"} changed. Undo it from the session tree like any checkpoint.`,
    nothing: "This session already has everything main has: nothing to bring in.",
    empty: "Nothing to bring in: this session already has main's files.",
  },
};

/**
 * `/projects/:id/sessions/:sessionId/merge`: the review of merging a session into the project's main line — the files
 * it changes on main (Monaco diff of main's text and the merged text), its conflicts (resolved here: edit the text or
 * take a side), the session's checkpoints (what was done, by whom) — and the merge itself. With `?from=main`
 * (`direction` `from-main`) the other way: main's changes into the session's files, main's commits listed. Chosen
 * texts are kept while the page is open, whatever the merge answers.
 */
export function MergeReview({
  projectId,
  sessionId,
  projectName,
  sessionTitle,
  sessionCreatedAt,
  readOnly,
  direction = "into-main",
  approval = { needed: false, canDecide: false },
}: {
  direction?: MergeDirection;
  /** Into main in a team that requires approval: whether the caller must ask, and whether they decide requests. */
  approval?: { needed: boolean; canDecide: boolean };
  projectId: string;
  sessionId: string;
  projectName: string;
  sessionTitle: string | null;
  /** When the session was created (ISO): an untitled session is named by it, as in the IDE. */
  sessionCreatedAt: string;
  readOnly: boolean;
}) {
  const state = useMergeReview(sessionId, direction);
  const { review, error, merged } = state;
  const asked = merged && "request" in merged && merged.request ? merged.request : null;
  const copy = COPY[direction];
  const t = sessionLabel({ title: sessionTitle, createdAt: sessionCreatedAt });
  useEffect(() => {
    document.title = `${copy.docTitle.replace("{t}", t)} · ${projectName} · Strata`;
  }, [projectName, t, copy]);
  const ideHref = `/projects/${encodeURIComponent(projectId)}${direction === "from-main" ? `?session=${encodeURIComponent(sessionId)}` : ""}`;
  return (
    <div className={styles.page}>
      <header className="workspace-header">
        <Link href="/" className="brand">
          Strata
        </Link>
        <span className="sep">/</span>
        <Link href={ideHref}>{projectName}</Link>
        <span className="sep">/</span>
        <h1 className="project-name">{copy.heading.replace("{t}", t)}</h1>
      </header>
      {error ? (
        <Notice kind="error" title={direction === "into-main" ? "Not merged" : "Not brought in"}>
          {error}
        </Notice>
      ) : null}
      {asked ? (
        <Notice
          kind="info"
          title="Waiting for approval"
          actions={<Link href={ideHref}>Back to the project</Link>}
        >
          Your merge request is open: an owner or admin of the team reviews it, and main changes when they
          approve. Asking again after more work replaces what it holds.
        </Notice>
      ) : merged ? (
        <Notice kind="info" title={copy.done} actions={<Link href={ideHref}>Back to the project</Link>}>
          {merged.commit ? copy.doneText(merged.commit.slice(0, 8), merged.files.length) : copy.nothing}
        </Notice>
      ) : null}
      {direction === "into-main" ? (
        <MergeRequestPanel
          sessionId={sessionId}
          canDecide={approval.canDecide}
          readOnly={readOnly}
          refreshKey={merged}
          onDecided={state.reload}
          currentTip={review?.tip ?? null}
        />
      ) : null}
      {!review && !error ? <Spinner label={copy.computing} /> : null}
      {review && !merged ? (
        <div className={styles.body}>
          <MergeSidebar state={state} review={review} empty={copy.empty} />
          <MergeMain
            state={state}
            review={review}
            readOnly={readOnly}
            direction={direction}
            ask={approval.needed}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The files the merge changes (conflicts first) and the commits it brings: the session's checkpoints, or main's. */
function MergeSidebar({
  state,
  review,
  empty,
}: {
  state: MergeReviewState;
  review: ReviewResult;
  empty: string;
}) {
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
          ? empty
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
      {"checkpoints" in review ? (
        <>
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
        </>
      ) : (
        <>
          <h2 className={styles.heading}>Main's commits this brings</h2>
          <ol className={styles.commits}>
            {review.mainCommits.map((c) => (
              <li key={c.oid}>
                <span className="mono">{c.oid.slice(0, 8)}</span> {c.title} · {c.author}
              </li>
            ))}
            {review.mainCommits.length === 0 ? (
              <li className="muted">None: the session has them all.</li>
            ) : null}
          </ol>
        </>
      )}
    </aside>
  );
}

/** The merge button with why it is disabled, and the selected file: its diff, or its conflict to resolve. */
function MergeMain({
  state,
  review,
  readOnly,
  direction,
  ask,
}: {
  state: MergeReviewState;
  review: ReviewResult;
  readOnly: boolean;
  direction: MergeDirection;
  /** The merge waits for approval: the button asks for it. */
  ask: boolean;
}) {
  const copy = ask ? { ...COPY[direction], ...ASK } : COPY[direction];
  const { selected, open, merging } = state;
  const file = review.files.find((f) => f.path === selected);
  const conflict = review.conflicts.find((c) => c.path === selected);
  const empty = review.files.length + review.conflicts.length === 0;
  const marked = Object.values(state.resolutions).filter(
    (t) => typeof t === "string" && hasConflictMarkers(t),
  ).length;
  return (
    <section className={styles.main} aria-label={selected ?? "No file"}>
      <div className={styles.actions}>
        <button
          type="button"
          className="btn btn-primary"
          disabled={readOnly || merging || open.length > 0 || empty}
          onClick={() => void state.merge()}
        >
          {merging ? copy.busy : copy.button}
        </button>
        <span className="muted">
          {readOnly
            ? `Your role can read this review but not ${direction === "into-main" ? "merge" : "change the session"}.`
            : open.length > 0
              ? `Resolve ${open.length} conflict${open.length === 1 ? "" : "s"} first.`
              : marked > 0
                ? `${marked === 1 ? "A chosen text still holds" : `${marked} chosen texts still hold`} conflict markers (<<<<<<<, =======, >>>>>>>): they would be merged as they are.`
                : copy.safe}
        </span>
      </div>
      {selected ? <h2 className={styles.heading}>{selected}</h2> : null}
      {conflict ? (
        <ConflictEditor
          conflict={conflict}
          resolution={state.resolutions[conflict.path]}
          onResolve={(text) => state.resolve(conflict.path, text)}
          mainSide={direction === "into-main" ? "ours" : "theirs"}
        />
      ) : file ? (
        <MergeDiff path={file.path} before={file.before} after={file.after} />
      ) : null}
    </section>
  );
}
