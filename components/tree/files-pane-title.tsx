"use client";

/**
 * The title row of a file-tree pane: `label` ("Files"; null where a tab above already says it), then (when
 * given) New file / New folder, and a refresh button.
 */
export function FilesPaneTitle({
  onRefresh,
  onNewFile,
  onNewFolder,
  label = "Files",
}: {
  onRefresh: () => void;
  onNewFile?: () => void;
  onNewFolder?: () => void;
  label?: string | null;
}) {
  return (
    <div className="pane-title">
      <span>{label}</span>
      <span className="pane-actions">
        {onNewFile ? (
          <button
            type="button"
            className="btn btn-icon"
            aria-label="New file"
            title="New file"
            onClick={onNewFile}
          >
            + File
          </button>
        ) : null}
        {onNewFolder ? (
          <button
            type="button"
            className="btn btn-icon"
            aria-label="New folder"
            title="New folder"
            onClick={onNewFolder}
          >
            + Folder
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-icon"
          aria-label="Refresh files"
          title="Refresh files"
          onClick={onRefresh}
        >
          ⟳
        </button>
      </span>
    </div>
  );
}
