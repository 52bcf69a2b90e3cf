"use client";

import dynamic from "next/dynamic";

/** Monaco, loaded on the client only. */
export const CodeEditor = dynamic(() => import("./monaco-editor"), {
  ssr: false,
  loading: () => <p className="editor-loading">Loading editor…</p>,
});
