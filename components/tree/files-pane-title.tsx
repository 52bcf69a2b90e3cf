"use client";

/** The title row of a file-tree pane: "Files" and a refresh button. */
export function FilesPaneTitle({ onRefresh }: { onRefresh: () => void }) {
  return (
    <div className="pane-title">
      <span>Files</span>
      <button
        type="button"
        className="btn btn-icon"
        aria-label="Refresh files"
        title="Refresh files"
        onClick={onRefresh}
      >
        ⟳
      </button>
    </div>
  );
}
