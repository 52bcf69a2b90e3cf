"use client";

import { useEffect } from "react";
import { formatBytes } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { CodeEditor } from "./code-editor";
import { languageForPath } from "./language";
import { isDirty, type OpenFile } from "./open-files";
import type { OpenFilesApi } from "./use-open-files";

/** Tabs, save toolbar, notices and the Monaco editor for the active file; `readOnly`: no typing, no Save. */
export function EditorPane({ files, readOnly = false }: { files: OpenFilesApi; readOnly?: boolean }) {
  const { active } = files;

  // Ctrl/Cmd+S saves the active file wherever the focus is.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (active && !readOnly) void files.save(active.path);
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [active, files, readOnly]);

  return (
    <section className="editor-pane" aria-label="Editor">
      <EditorTabs files={files} />
      {active ? <ActiveFile file={active} files={files} readOnly={readOnly} /> : <EmptyEditor />}
    </section>
  );
}

function EditorTabs({ files }: { files: OpenFilesApi }) {
  if (files.files.length === 0) return null;
  return (
    <div className="tabs" role="tablist" aria-label="Open files">
      {files.files.map((f) => {
        const selected = f.path === files.active?.path;
        const dirty = isDirty(f);
        const name = f.path.split("/").pop() ?? f.path;
        return (
          <div key={f.path} className={`tab${selected ? " selected" : ""}${dirty ? " dirty" : ""}`}>
            <button
              type="button"
              role="tab"
              aria-selected={selected}
              className="tab-label"
              title={f.path}
              onClick={() => files.activate(f.path)}
            >
              <span className="tab-name">{name}</span>
              {dirty ? (
                <span className="dirty-dot" role="img" aria-label="unsaved changes">
                  ●
                </span>
              ) : null}
            </button>
            <button
              type="button"
              className="tab-close"
              aria-label={`Close ${name}`}
              title={dirty ? "Close (discards unsaved changes)" : "Close"}
              onClick={() => {
                if (!dirty || window.confirm(`Discard unsaved changes to ${f.path}?`)) files.close(f.path);
              }}
            >
              ×
            </button>
          </div>
        );
      })}
    </div>
  );
}

function ActiveFile({ file, files, readOnly }: { file: OpenFile; files: OpenFilesApi; readOnly: boolean }) {
  const dirty = isDirty(file);
  const editable = file.status === "ready" && !file.binary && !file.tooLarge;
  return (
    <div className="editor-body">
      <div className="editor-toolbar">
        <span className="mono path" title={file.path}>
          {file.path}
        </span>
        <span className="muted">{file.status === "ready" ? formatBytes(file.size) : ""}</span>
        {dirty ? <span className="badge badge-warn">Modified</span> : null}
        {file.saving ? <Spinner label="Saving" /> : null}
        {readOnly ? (
          <span className="badge">Read-only</span>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            disabled={!editable || !dirty || file.saving}
            onClick={() => void files.save(file.path)}
            title="Save (Ctrl/Cmd+S)"
          >
            Save
          </button>
        )}
      </div>
      {file.serverChanged ? (
        <Notice
          kind="warning"
          title="Changed elsewhere"
          actions={
            <>
              <button type="button" className="btn btn-small" onClick={() => files.keepMine(file.path)}>
                Keep mine
              </button>
              <button type="button" className="btn btn-small" onClick={() => files.reload(file.path)}>
                Load theirs
              </button>
            </>
          }
        >
          {file.path} was changed on the server (by another tab, the agent or a command) while you had unsaved
          edits. Keep mine keeps your edits (saving replaces their version); Load theirs discards your edits.
        </Notice>
      ) : null}
      {file.serverGone ? (
        <Notice
          kind="warning"
          title="Deleted elsewhere"
          actions={
            <button type="button" className="btn btn-small" onClick={() => files.keepMine(file.path)}>
              Keep mine
            </button>
          }
        >
          {file.path} was deleted or moved elsewhere (another tab, the agent or a command) while you had
          unsaved edits. Your edits are still here: Save recreates the file at this path, or close the tab to
          drop them.
        </Notice>
      ) : null}
      {file.saveError ? (
        <Notice kind="error" title="Save failed">
          {file.saveError}
        </Notice>
      ) : null}
      <FileBody file={file} files={files} readOnly={readOnly} />
    </div>
  );
}

function FileBody({ file, files, readOnly }: { file: OpenFile; files: OpenFilesApi; readOnly: boolean }) {
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
            <button type="button" className="btn btn-small" onClick={() => files.reload(file.path)}>
              Retry
            </button>
          }
        >
          {file.error}
        </Notice>
      </div>
    );
  }
  if (file.binary || file.tooLarge) {
    return (
      <div className="editor-placeholder">
        <Notice kind="info" title={file.binary ? "Binary file" : "File too large"}>
          {file.binary
            ? `${file.path} is a binary file (${formatBytes(file.size)}) and is not shown in the editor.`
            : `${file.path} is too large to open in the editor (${formatBytes(file.size)}).`}
        </Notice>
      </div>
    );
  }
  return (
    <div className="editor-host" data-testid="editor" data-path={file.path}>
      <CodeEditor
        path={file.path}
        language={languageForPath(file.path)}
        value={file.content}
        revision={file.revision}
        reveal={files.reveal?.path === file.path ? files.reveal : undefined}
        onChange={(v) => files.edit(file.path, v)}
        bindBuffer={files.bindBuffer}
        readOnly={readOnly}
      />
    </div>
  );
}

function EmptyEditor() {
  return (
    <div className="editor-placeholder muted">
      <p>Open a file from the tree.</p>
    </div>
  );
}
