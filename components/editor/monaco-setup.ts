"use client";

/**
 * Monaco bundled with the app (no CDN): workers come from monaco-editor's own files and @monaco-editor/react is
 * pointed at the bundled instance. Imported for its effect by every Monaco component (the editor, the diff view),
 * which load only on the client (`ssr: false`), since monaco touches `window` at import time.
 */
import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";

self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === "typescript" || label === "javascript") {
      return new Worker(new URL("monaco-editor/language/typescript/ts.worker.js", import.meta.url), {
        type: "module",
      });
    }
    if (label === "json") {
      return new Worker(new URL("monaco-editor/language/json/json.worker.js", import.meta.url), {
        type: "module",
      });
    }
    if (label === "css" || label === "scss" || label === "less") {
      return new Worker(new URL("monaco-editor/language/css/css.worker.js", import.meta.url), {
        type: "module",
      });
    }
    if (label === "html" || label === "handlebars" || label === "razor") {
      return new Worker(new URL("monaco-editor/language/html/html.worker.js", import.meta.url), {
        type: "module",
      });
    }
    return new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" });
  },
};
loader.config({ monaco });
