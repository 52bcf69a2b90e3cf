"use client";

/**
 * Monaco bundled with the app (no CDN): workers come from monaco-editor's own files and
 * @monaco-editor/react is pointed at the bundled instance. Load only through `code-editor.tsx`
 * (an `ssr: false` dynamic import), since monaco touches `window` at import time.
 */
import Editor from "@monaco-editor/react";
import * as monaco from "monaco-editor";
import { useEffect, useRef } from "react";
import "./monaco-setup";

/** The server revision each model's content was last replaced with. */
const appliedRevision = new WeakMap<monaco.editor.ITextModel, number>();

export interface MonacoEditorProps {
  path: string;
  language: string;
  /** Content from the server; applied to the buffer only when `revision` changes. */
  value: string;
  revision: number;
  onChange: (value: string) => void;
  /** Typing changes nothing (Monaco `readOnly`); server content is still applied. */
  readOnly?: boolean;
  /**
   * Hands the caller a reader of this path's live buffer (the Monaco model's value at call time,
   * `undefined` when no model exists); the returned function unbinds it. Saves read through it, so
   * a Ctrl+S right after a keystroke or paste sends what the editor shows, not a render-old copy.
   */
  bindBuffer?: (path: string, read: () => string | undefined) => () => void;
  /** Put the cursor here (1-based line and column) and scroll it into view, once per `seq`. */
  reveal?: { line: number; column: number; seq: number };
}

/**
 * Uncontrolled Monaco: the model owns the buffer while typing (a controlled `value` would drop
 * keystrokes that arrive before React re-renders); server content is pushed in per revision.
 */
export default function MonacoEditor({
  path,
  language,
  value,
  revision,
  onChange,
  readOnly = false,
  bindBuffer,
  reveal,
}: MonacoEditorProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const revealed = useRef(0);

  // @monaco-editor/react keys a model by `Uri.parse(path)`; read that model, not the editor's
  // current one (which may still be the previous path's model for a moment after a tab switch).
  useEffect(() => {
    if (!bindBuffer) return;
    const uri = monaco.Uri.parse(path);
    return bindBuffer(path, () => monaco.editor.getModel(uri)?.getValue());
  }, [bindBuffer, path]);

  const sync = () => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || appliedRevision.get(model) === revision) return;
    appliedRevision.set(model, revision);
    if (model.getValue() === value) return;
    editor.pushUndoStop();
    editor.executeEdits("server", [
      { range: model.getFullModelRange(), text: value, forceMoveMarkers: true },
    ]);
    editor.pushUndoStop();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: sync reads the latest props; run it when they change
  useEffect(sync, [path, revision, value]);

  const applyReveal = () => {
    const editor = editorRef.current;
    if (
      !editor ||
      !reveal ||
      revealed.current === reveal.seq ||
      editor.getModel()?.uri.toString() !== monaco.Uri.parse(path).toString()
    )
      return;
    revealed.current = reveal.seq;
    const position = { lineNumber: reveal.line, column: reveal.column };
    editor.setPosition(position);
    editor.revealPositionInCenter(position);
    editor.focus();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: applyReveal reads the latest props
  useEffect(applyReveal, [path, revision, reveal]);

  return (
    <Editor
      path={path}
      language={language}
      defaultValue={value}
      keepCurrentModel
      theme="vs-dark"
      loading={<p className="editor-loading">Loading editor…</p>}
      onMount={(editor) => {
        editorRef.current = editor;
        sync();
        applyReveal();
      }}
      onChange={(v) => onChange(v ?? "")}
      options={{
        automaticLayout: true,
        fontSize: 13,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        tabSize: 2,
        renderWhitespace: "selection",
        readOnly,
        readOnlyMessage: { value: "You can only read this project (your role in its workspace)." },
      }}
    />
  );
}
