"use client";

import { useState } from "react";
import { DiffEditorView } from "@/components/diff/diff-editor";
import { CodeEditor } from "@/components/editor/code-editor";
import { languageForPath } from "@/components/editor/language";
import styles from "./merge.module.css";
import type { MergeConflict } from "./merge-api";

/**
 * One file the merge changes on the side merged into: its text now (left; main's, or the session's when bringing main
 * in) and the merged text (right), read-only.
 */
export function MergeDiff({
  path,
  before,
  after,
}: {
  path: string;
  before: string | null;
  after: string | null;
}) {
  if (before === null && after === null)
    return <p className="muted">This file is binary or over 1 MiB: it is merged as it is, without a diff.</p>;
  return (
    <div className={styles.editor} data-testid="merge-diff">
      <DiffEditorView key={path} before={before ?? ""} after={after ?? ""} language={languageForPath(path)} />
    </div>
  );
}

/** Whether `text` still holds a line of git's conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`). */
export const hasConflictMarkers = (text: string) => /^(<<<<<<<|=======|>>>>>>>)( |$)/m.test(text);

const REASONS: Record<MergeConflict["reason"], string> = {
  edited: "Main and this session changed the same lines. Edit the text below to what the file should be.",
  deleted: "One side deleted this file and the other changed it. Keep one side's file, or delete it.",
  binary: "This file is not text: keep main's or the session's version.",
};

/**
 * A conflicting file: the text to merge (git's markers at first), editable; "Use main's" / "Use the session's" fill
 * it with one side, "Delete the file" chooses deletion. `resolution` undefined = not chosen yet.
 */
export function ConflictEditor({
  conflict,
  resolution,
  onResolve,
  mainSide = "ours",
}: {
  conflict: MergeConflict;
  resolution: string | null | undefined;
  onResolve: (text: string | null) => void;
  /** Which side of the conflict is main: `ours` merging into main, `theirs` bringing main into the session. */
  mainSide?: "ours" | "theirs";
}) {
  const [main, session] =
    mainSide === "ours" ? [conflict.ours, conflict.theirs] : [conflict.theirs, conflict.ours];
  const [revision, setRevision] = useState(0);
  const choose = (text: string | null) => {
    onResolve(text);
    setRevision((r) => r + 1);
  };
  const text = resolution ?? conflict.marked ?? conflict.theirs ?? conflict.ours ?? "";
  const markers = typeof resolution === "string" && hasConflictMarkers(resolution);
  return (
    <div className={styles.conflict}>
      <p>{REASONS[conflict.reason]}</p>
      <div className={styles.choices}>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => choose(main)}
          disabled={main === null && conflict.reason === "binary"}
        >
          Use main's
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => choose(session)}
          disabled={session === null && conflict.reason === "binary"}
        >
          Use the session's
        </button>
        <button type="button" className="btn btn-small" onClick={() => choose(null)}>
          Delete the file
        </button>
      </div>
      {resolution === null ? (
        <p className={styles.status}>
          Chosen: the file is deleted {mainSide === "ours" ? "on main" : "in this session"}.
        </p>
      ) : conflict.reason === "binary" ? (
        <p className={styles.status}>{resolution === undefined ? "Not chosen yet." : "Chosen."}</p>
      ) : (
        <div className={styles.editor} data-testid="conflict-editor">
          <CodeEditor
            path={`merge:${conflict.path}`}
            language={languageForPath(conflict.path)}
            value={text}
            revision={revision}
            onChange={(v) => onResolve(v)}
          />
        </div>
      )}
      {markers ? (
        <p className={styles.warning} role="status">
          The text still holds conflict markers (&lt;&lt;&lt;&lt;&lt;&lt;&lt;, =======,
          &gt;&gt;&gt;&gt;&gt;&gt;&gt;): they would be merged as they are.
        </p>
      ) : null}
    </div>
  );
}
