"use client";

import { useState } from "react";
import { describeError, listSessions, type Project } from "@/components/api-client";
import styles from "./lifecycle.module.css";
import { type DeletedProject, deleteProject, renameProject } from "./lifecycle-client";
import { ConfirmDeleteDialog, RenameDialog } from "./lifecycle-dialogs";

/** Longest project name (the server's limit, lib/projects/projects.ts `MAX_PROJECT_NAME_LENGTH`). */
const MAX_NAME = 100;

/**
 * What deleting a project removes, in words: its files under `rootPath` (git repository included) and its
 * `sessions` (null while not known).
 */
export function projectDeleteText(rootPath: string, sessions: number | null): string {
  const files = `All files in ${rootPath} (its git repository included)`;
  if (sessions === null) return `${files} and all its sessions will be deleted. This cannot be undone.`;
  if (sessions === 0) return `${files} will be deleted. It has no sessions. This cannot be undone.`;
  return `${files} and its ${sessions} session${sessions === 1 ? "" : "s"} will be deleted. This cannot be undone.`;
}

type Open = { kind: "rename" } | { kind: "delete"; sessions: number | null } | null;

/**
 * "Rename" and "Delete" for one project, with their dialogs: Rename asks for the new name; Delete names the
 * project, its folder and how many sessions go with it, and asks to confirm. Failures show in the dialog.
 */
export function ProjectActions({
  project,
  onRenamed,
  onDeleted,
  size = "small",
}: {
  project: Project;
  onRenamed: (project: Project) => void;
  onDeleted: (deleted: DeletedProject) => void;
  size?: "small" | "normal";
}) {
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const btn = size === "small" ? "btn btn-small" : "btn";

  const show = (next: Open) => {
    setError(null);
    setOpen(next);
    if (next?.kind === "delete")
      listSessions(project.id).then(
        (list) => setOpen((o) => (o?.kind === "delete" ? { kind: "delete", sessions: list.length } : o)),
        () => undefined, // The text then says "all its sessions".
      );
  };
  const run = async (action: () => Promise<void>, what: string) => {
    setBusy(true);
    try {
      await action();
      setOpen(null);
    } catch (err) {
      setError(`Could not ${what} “${project.name}”: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <span className={styles.actions}>
      <button
        type="button"
        className={btn}
        onClick={() => show({ kind: "rename" })}
        aria-label={`Rename project ${project.name}`}
      >
        Rename
      </button>
      <button
        type="button"
        className={btn}
        onClick={() => show({ kind: "delete", sessions: null })}
        aria-label={`Delete project ${project.name}`}
      >
        Delete
      </button>
      {open?.kind === "rename" ? (
        <RenameDialog
          title="Rename project"
          label="Project name"
          initial={project.name}
          maxLength={MAX_NAME}
          hint={`Only the name changes; the folder ${project.rootPath} and its sessions stay as they are.`}
          busy={busy}
          error={error}
          onSave={(name) => void run(async () => onRenamed(await renameProject(project.id, name)), "rename")}
          onCancel={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === "delete" ? (
        <ConfirmDeleteDialog
          title="Delete project?"
          subject={
            <>
              {project.name} <span className="muted mono">{project.rootPath}</span>
            </>
          }
          confirmLabel="Delete project"
          busy={busy}
          error={error}
          onConfirm={() => void run(async () => onDeleted(await deleteProject(project.id)), "delete")}
          onCancel={() => setOpen(null)}
        >
          <p>{projectDeleteText(project.rootPath, open.sessions)}</p>
        </ConfirmDeleteDialog>
      ) : null}
    </span>
  );
}
