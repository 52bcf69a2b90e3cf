"use client";

import { useEffect, useRef } from "react";
import type { FileChange } from "@/components/chat/checkpoints-client";
import { type DiffTarget, stepIndex, totals } from "@/components/chat/turn-changes-view";
import { languageForPath } from "@/components/editor/language";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { useFocusTrap } from "@/components/ui/use-focus-trap";
import { ChangeCounts, PathLabel, StatusLetter } from "./change-bits";
import styles from "./diff.module.css";
import { DiffEditorView } from "./diff-editor";
import { type DiffApi, useDiff } from "./use-diff";

/**
 * The diff view, a large overlay: the changed files (status letter, `+/-` counts, binary marked) on the left and
 * Monaco's diff of the selected one on the right. Escape closes it; ArrowUp/ArrowDown move between files (outside
 * the editor). Loading and failures show in place, a failure with Retry. A modal (`useFocusTrap`): Tab cycles
 * through the Close button and the (read-only) editors; on close focus goes back to the Diff button that opened it.
 */
export function DiffView({
  sessionId,
  target,
  onClose,
}: {
  sessionId: string;
  target: DiffTarget;
  onClose: () => void;
}) {
  const diff = useDiff(sessionId, target.query, target.path);
  const list = useRef<HTMLUListElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const files = diff.files.status === "ready" ? diff.files.data : [];

  useEffect(() => {
    list.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        closeRef.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    if ((e.target as HTMLElement).closest(".monaco-editor")) return;
    e.preventDefault();
    const at = files.findIndex((f) => f.path === diff.selected);
    const next = files[stepIndex(at, e.key === "ArrowDown" ? 1 : -1, files.length)];
    if (next) diff.select(next.path);
  };

  const sum = totals(files);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click beside the view closes it (Escape does too)
    <div
      className={styles.backdrop}
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className={styles.panel}
        role="dialog"
        aria-modal="true"
        aria-label={target.title}
        data-testid="diff-view"
        onKeyDown={onKeyDown}
      >
        <div className={styles.header}>
          <h2 className={styles.title}>{target.title}</h2>
          {diff.files.status === "ready" ? (
            <span className={styles.muted}>
              {files.length} file{files.length === 1 ? "" : "s"}{" "}
              <span className={styles.add}>+{sum.additions}</span>{" "}
              <span className={styles.del}>−{sum.deletions}</span>
            </span>
          ) : null}
          <span className={styles.spacer} />
          <span className={styles.hint}>↑↓ files · Esc closes</span>
          <button type="button" className="btn btn-small" onClick={onClose}>
            Close
          </button>
        </div>
        <div className={styles.body}>
          <ul className={styles.files} ref={list} tabIndex={-1} aria-label="Changed files">
            {diff.files.status === "loading" ? (
              <li className={styles.placeholder}>
                <Spinner label="Loading changes" />
              </li>
            ) : null}
            {files.map((f) => (
              <FileRow key={f.path} file={f} selected={f.path === diff.selected} onSelect={diff.select} />
            ))}
            {diff.files.status === "ready" && files.length === 0 ? (
              <li className={`${styles.placeholder} ${styles.muted}`}>No file changed.</li>
            ) : null}
          </ul>
          <div className={styles.main}>
            <DiffBody diff={diff} file={files.find((f) => f.path === diff.selected) ?? null} />
          </div>
        </div>
      </div>
    </div>
  );
}

function FileRow({
  file,
  selected,
  onSelect,
}: {
  file: FileChange;
  selected: boolean;
  onSelect: (path: string) => void;
}) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: "nearest" });
  }, [selected]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the list's arrow keys select; the row is a mouse target
    <li
      ref={ref}
      className={`${styles.file}${selected ? ` ${styles.fileSelected}` : ""}`}
      aria-current={selected || undefined}
      data-testid="diff-file"
      data-path={file.path}
      onClick={() => onSelect(file.path)}
    >
      <StatusLetter status={file.status} />
      <PathLabel path={file.path} />
      <ChangeCounts file={file} />
    </li>
  );
}

function DiffBody({ diff, file }: { diff: DiffApi; file: FileChange | null }) {
  const retry = (
    <button type="button" className="btn btn-small" onClick={diff.retry}>
      Retry
    </button>
  );
  if (diff.files.status === "error")
    return (
      <div className={styles.placeholder}>
        <Notice kind="error" title="Could not load the changes" actions={retry}>
          {diff.files.error}
        </Notice>
      </div>
    );
  if (!file || !diff.texts) return null;
  const texts = diff.texts;
  return (
    <>
      <div className={styles.mainHeader}>
        <StatusLetter status={file.status} />
        <PathLabel path={file.path} />
        <ChangeCounts file={file} />
      </div>
      {texts.status === "loading" ? (
        <div className={styles.placeholder}>
          <Spinner label={`Loading ${file.path}`} />
        </div>
      ) : texts.status === "error" ? (
        <div className={styles.placeholder}>
          <Notice kind="error" title={`Could not load ${file.path}`} actions={retry}>
            {texts.error}
          </Notice>
        </div>
      ) : texts.data.binary ? (
        <div className={styles.placeholder}>
          <Notice kind="info" title="Binary file">
            {file.path} is binary: there is no text to compare.
          </Notice>
        </div>
      ) : (
        <div className={styles.editor} data-testid="diff-editor" data-path={file.path}>
          <DiffEditorView
            key={file.path}
            before={texts.data.before ?? ""}
            after={texts.data.after ?? ""}
            language={languageForPath(file.path)}
          />
        </div>
      )}
    </>
  );
}
