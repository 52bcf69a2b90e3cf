"use client";

import { CodeEditor } from "@/components/editor/code-editor";
import { languageForPath } from "@/components/editor/language";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import styles from "./rules.module.css";
import { type DraftFile, isChanged } from "./use-rules-draft";

/** What the caller's role lets them do with the rules root. */
export type RulesMode = "commit" | "propose" | "read";

/** The selected rules file: toolbar (status, per-role actions) and Monaco (a plain view for viewers). */
export function RulesEditor({
  workspaceId,
  file,
  mode,
  lastChange,
  onEdit,
  onRetry,
  toolbar,
}: {
  workspaceId: string;
  file: DraftFile | null;
  mode: RulesMode;
  /** "changed by X · time" of the file on the server. */
  lastChange: string;
  onEdit: (path: string, content: string) => void;
  onRetry: (path: string) => void;
  /** Role-specific buttons (Save / Propose / Delete). */
  toolbar: React.ReactNode;
}) {
  if (!file) {
    return (
      <div className="editor-placeholder muted">
        <p>
          {mode === "read"
            ? "Select a file to read it."
            : "Select a file on the left, or start a new one (e.g. skills/review/SKILL.md)."}
        </p>
      </div>
    );
  }
  const changed = isChanged(file);
  return (
    <div className="editor-body">
      <div className="editor-toolbar">
        <span className={`mono path ${styles.toolbarPath}`} title={file.path}>
          {file.path}
        </span>
        {file.saved === null ? (
          <span className="badge badge-warn">New</span>
        ) : file.deleted ? (
          <span className="badge badge-warn">Deleted in draft</span>
        ) : changed ? (
          <span className="badge badge-warn">Modified</span>
        ) : null}
        <span className={`muted ${styles.toolbarMeta}`}>{lastChange}</span>
        {toolbar}
      </div>
      <FileBody workspaceId={workspaceId} file={file} mode={mode} onEdit={onEdit} onRetry={onRetry} />
    </div>
  );
}

function FileBody({
  workspaceId,
  file,
  mode,
  onEdit,
  onRetry,
}: {
  workspaceId: string;
  file: DraftFile;
  mode: RulesMode;
  onEdit: (path: string, content: string) => void;
  onRetry: (path: string) => void;
}) {
  if (file.status === "loading") {
    return (
      <div className="editor-placeholder">
        <Spinner label={`Loading ${file.path}`} />
      </div>
    );
  }
  if (file.status === "error") {
    return (
      <div className="editor-placeholder">
        <Notice
          kind="error"
          title={`Could not open ${file.path}`}
          actions={
            <button type="button" className="btn btn-small" onClick={() => onRetry(file.path)}>
              Retry
            </button>
          }
        >
          {file.error}
        </Notice>
      </div>
    );
  }
  if (file.binary) {
    return (
      <div className="editor-placeholder">
        <Notice kind="info" title="Not a text file">
          {file.path} is binary or too large to edit here.
        </Notice>
      </div>
    );
  }
  if (mode === "read") {
    return (
      <pre className={styles.readOnly} data-testid="rules-readonly" title={`${file.path} (read-only)`}>
        {file.content || "(empty file)"}
      </pre>
    );
  }
  if (file.deleted) {
    return (
      <div className="editor-placeholder">
        <Notice kind="warning" title="Marked for deletion">
          {file.path} will be deleted when you {mode === "commit" ? "save" : "propose your draft"}. Use Undo
          delete to keep it.
        </Notice>
      </div>
    );
  }
  return (
    <div className="editor-host" data-testid="editor" data-path={file.path}>
      <CodeEditor
        path={`team-rules/${workspaceId}/${file.path}`}
        language={languageForPath(file.path)}
        value={file.content}
        revision={file.revision}
        onChange={(v) => onEdit(file.path, v)}
      />
    </div>
  );
}
