"use client";

import { useEffect, useRef } from "react";
import styles from "./quick-open.module.css";

/**
 * The tree pane's two views, Files and Search, as tabs (Search: Ctrl/Cmd+Shift+F from anywhere).
 */
export function PaneTabs({
  pane,
  onPane,
}: {
  pane: "files" | "search";
  onPane: (pane: "files" | "search") => void;
}) {
  return (
    <div className={styles.paneTabs} role="tablist" aria-label="Side bar">
      <button
        type="button"
        role="tab"
        className={styles.paneTab}
        aria-selected={pane === "files"}
        onClick={() => onPane("files")}
      >
        Files
      </button>
      <button
        type="button"
        role="tab"
        className={styles.paneTab}
        aria-selected={pane === "search"}
        title="Search in files (Ctrl+Shift+F)"
        onClick={() => onPane("search")}
      >
        Search
      </button>
    </div>
  );
}

/**
 * The IDE's global shortcuts, caught before the editor or any field sees them: Ctrl+P / Cmd+P `quickOpen` (the
 * browser's Print is not wanted there), Ctrl+Shift+F / Cmd+Shift+F `search`.
 */
export function useIdeShortcuts(actions: { quickOpen: () => void; search: () => void }): void {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === "p" && !e.shiftKey) {
        e.preventDefault();
        e.stopPropagation();
        ref.current.quickOpen();
      } else if (key === "f" && e.shiftKey) {
        e.preventDefault();
        e.stopPropagation();
        ref.current.search();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);
}
