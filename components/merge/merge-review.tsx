"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { describeError } from "@/components/api-client";
import { ApiError } from "@/components/http/api-fetch";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import styles from "./merge.module.css";
import { conflictsOf, type MergeResult, mergeSession, previewMerge } from "./merge-api";
import { ConflictEditor, MergeDiff } from "./merge-file-view";

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
  const [review, setReview] = useState<MergeResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [resolutions, setResolutions] = useState<Record<string, string | null>>({});
  const [merging, setMerging] = useState(false);
  const [merged, setMerged] = useState<MergeResult | null>(null);
  const load = useCallback(
    (signal?: AbortSignal) =>
      previewMerge(sessionId, signal).then(
        (r) => {
          setReview(r);
          setError(null);
          setSelected((s) => s ?? r.conflicts[0]?.path ?? r.files[0]?.path ?? null);
        },
        (err) => {
          if (!signal?.aborted)
            setError(`Could not compute the merge: ${describeError(err)}. Reload to try again.`);
        },
      ),
    [sessionId],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);
  useEffect(() => {
    document.title = `Merge ${sessionTitle ?? "untitled session"} · ${projectName} · Strata`;
  }, [projectName, sessionTitle]);

  const conflicts = review?.conflicts ?? [];
  const open = conflicts.filter((c) => !(c.path in resolutions));
  const merge = async () => {
    setMerging(true);
    setError(null);
    try {
      setMerged(await mergeSession(sessionId, resolutions, review?.main ?? null));
    } catch (err) {
      const more = conflictsOf(err);
      if (more && review) setReview({ ...review, conflicts: more });
      // Main moved since the review: show the new one (the chosen texts stay for the files still in conflict).
      if (err instanceof ApiError && err.code === "main_moved") void load();
      setError(
        more
          ? `${describeError(err)} Your chosen texts are kept.`
          : `The merge did not happen: ${describeError(err)}. Your chosen texts are kept; try again.`,
      );
    } finally {
      setMerging(false);
    }
  };

  const file = review?.files.find((f) => f.path === selected);
  const conflict = conflicts.find((c) => c.path === selected);
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
          <aside className={styles.side} aria-label="What the merge changes">
            <h2 className={styles.heading}>
              {review.files.length + conflicts.length === 0
                ? "Nothing to merge: main already has this session's files."
                : `${review.files.length + conflicts.length} file${review.files.length + conflicts.length === 1 ? "" : "s"} · ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}`}
            </h2>
            <ul className={styles.files}>
              {conflicts.map((c) => (
                <li key={`c:${c.path}`}>
                  <button
                    type="button"
                    aria-current={selected === c.path}
                    onClick={() => setSelected(c.path)}
                  >
                    <span className={c.path in resolutions ? styles.resolvedTag : styles.conflictTag}>
                      {c.path in resolutions ? "resolved" : "conflict"}
                    </span>
                    {c.path}
                  </button>
                </li>
              ))}
              {review.files.map((f) => (
                <li key={`f:${f.path}`}>
                  <button
                    type="button"
                    aria-current={selected === f.path}
                    onClick={() => setSelected(f.path)}
                  >
                    <span className={styles.tag}>{f.status}</span>
                    {f.path}
                  </button>
                </li>
              ))}
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
          <section className={styles.main} aria-label={selected ?? "No file"}>
            <div className={styles.actions}>
              <button
                type="button"
                className="btn btn-primary"
                disabled={
                  readOnly || merging || open.length > 0 || review.files.length + conflicts.length === 0
                }
                onClick={() => void merge()}
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
                resolution={resolutions[conflict.path]}
                onResolve={(text) => setResolutions((r) => ({ ...r, [conflict.path]: text }))}
              />
            ) : file ? (
              <MergeDiff path={file.path} before={file.before} after={file.after} />
            ) : null}
          </section>
        </div>
      ) : null}
    </div>
  );
}
