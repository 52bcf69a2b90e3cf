"use client";

import dynamic from "next/dynamic";

/** Monaco's diff editor, loaded on the client only. */
export const DiffEditorView = dynamic(() => import("./monaco-diff"), {
  ssr: false,
  loading: () => <p className="editor-loading">Loading diff…</p>,
});
