"use client";

/**
 * Monaco's diff editor (read-only, side by side), bundled like the code editor (no CDN). Load only through
 * `diff-editor.tsx` (an `ssr: false` dynamic import). Key it by file: each mount owns its two models.
 */
import { DiffEditor, type MonacoDiffEditor } from "@monaco-editor/react";
import { useLayoutEffect, useRef } from "react";
import "@/components/editor/monaco-setup";

export interface MonacoDiffProps {
  before: string;
  after: string;
  language: string;
}

/** Before (left) and after (right) of one file, changes highlighted. */
export default function MonacoDiff({ before, after, language }: MonacoDiffProps) {
  const editorRef = useRef<MonacoDiffEditor | null>(null);
  // @monaco-editor/react disposes the models before the widget, which Monaco reports as an error: the widget lets
  // go of them first here (a layout cleanup runs before the library's own), then they are disposed.
  useLayoutEffect(
    () => () => {
      const editor = editorRef.current;
      const model = editor?.getModel();
      editor?.setModel(null);
      model?.original.dispose();
      model?.modified.dispose();
    },
    [],
  );
  return (
    <DiffEditor
      original={before}
      modified={after}
      language={language}
      theme="vs-dark"
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      loading={<p className="editor-loading">Loading diff…</p>}
      onMount={(editor) => {
        editorRef.current = editor;
      }}
      options={{
        readOnly: true,
        originalEditable: false,
        renderSideBySide: true,
        automaticLayout: true,
        fontSize: 13,
        minimap: { enabled: false },
        scrollBeyondLastLine: false,
        renderOverviewRuler: false,
      }}
    />
  );
}
