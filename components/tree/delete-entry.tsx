"use client";

import { type ReactNode, useCallback, useState } from "react";
import { type DeleteResponse, describeError } from "@/components/api-client";
import { ConfirmDeleteDialog } from "@/components/projects/lifecycle-dialogs";

/** A file or folder the user asked to delete (path relative to the tree's root). */
export interface DeleteTarget {
  path: string;
  kind: "file" | "dir" | "symlink";
}

/**
 * The confirmation dialog for deleting a tree entry: names the path and, for a folder, says everything in
 * it goes too. Escape or Cancel closes it; a failure (e.g. 404, `.git` refused) is shown in the dialog.
 */
export function DeleteDialog({
  target,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  target: DeleteTarget;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const folder = target.kind === "dir";
  return (
    <ConfirmDeleteDialog
      title={folder ? "Delete folder?" : "Delete file?"}
      subject={<span className="mono delete-path">{target.path}</span>}
      confirmLabel="Delete"
      busy={busy}
      error={error}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {folder
          ? "The folder and everything in it will be deleted. This cannot be undone here (a checkpoint may still hold it)."
          : "The file will be deleted. This cannot be undone here (a checkpoint may still hold it)."}
      </p>
    </ConfirmDeleteDialog>
  );
}

/** True when `path` is `deleted` itself or lies below it (both relative to the same root). */
export function isAtOrBelow(path: string, deleted: string): boolean {
  return path === deleted || path.startsWith(`${deleted}/`);
}

/**
 * Deleting tree entries with a confirmation: `request(target)` opens the dialog, Delete calls `remove`, then
 * `onDeleted` (refresh the tree, close editor tabs at or below the path). Returns the dialog to render.
 */
export function useTreeDelete(
  remove: (path: string) => Promise<DeleteResponse>,
  onDeleted: (target: DeleteTarget) => void,
): { request: (target: DeleteTarget) => void; dialog: ReactNode } {
  const [target, setTarget] = useState<DeleteTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = useCallback((t: DeleteTarget) => {
    setError(null);
    setTarget(t);
  }, []);
  const confirm = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await remove(target.path);
      setTarget(null);
      onDeleted(target);
    } catch (err) {
      setError(`Could not delete ${target.path}: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };
  const dialog = target ? (
    <DeleteDialog
      target={target}
      busy={busy}
      error={error}
      onConfirm={() => void confirm()}
      onCancel={() => setTarget(null)}
    />
  ) : null;
  return { request, dialog };
}
