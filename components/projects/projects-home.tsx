"use client";

import { useCallback, useEffect, useState } from "react";
import { describeError, listProjects, type Project } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ImportForm } from "./import-form";
import { type DeletedProject, takeDeletedNotice } from "./lifecycle-client";
import { ProjectList } from "./project-list";

/**
 * The projects page body for one workspace: the import form (imports go to `workspaceId`) and the list of its
 * projects (GET /api/projects?workspaceId=). With `readOnlyNote` (a viewer of the workspace) the note replaces the
 * import form and the projects have no Rename/Delete.
 */
export function ProjectsHome({
  workspaceId,
  readOnlyNote = null,
}: {
  workspaceId: string;
  /** Why the caller cannot change projects here (their role), or null when they can. */
  readOnlyNote?: string | null;
}) {
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deleted, setDeleted] = useState<DeletedProject | null>(null);

  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const list = await listProjects(signal, workspaceId);
        setProjects(list);
        setError(null);
      } catch (err) {
        if (!signal?.aborted) setError(describeError(err));
      }
    },
    [workspaceId],
  );

  // A project deleted from its own page: say so here, where the IDE sent the user.
  useEffect(() => setDeleted(takeDeletedNotice()), []);

  useEffect(() => {
    const ctrl = new AbortController();
    void refresh(ctrl.signal);
    return () => ctrl.abort();
  }, [refresh]);

  return (
    <>
      {readOnlyNote ? (
        <Notice kind="info">{readOnlyNote}</Notice>
      ) : (
        <section className="card" aria-labelledby="import-heading">
          <h2 id="import-heading">Import a project</h2>
          <ImportForm workspaceId={workspaceId} onImported={() => void refresh()} />
        </section>
      )}
      <section className="card" aria-labelledby="projects-heading">
        <h2 id="projects-heading">Projects</h2>
        {error ? (
          <Notice kind="error" title="Could not load projects">
            {error}
          </Notice>
        ) : null}
        {deleted ? (
          <Notice
            kind="info"
            title={`Deleted project “${deleted.name}”`}
            actions={
              <button type="button" className="btn btn-small" onClick={() => setDeleted(null)}>
                Dismiss
              </button>
            }
          >
            {deletedSummary(deleted)}
          </Notice>
        ) : null}
        {projects ? (
          <ProjectList
            projects={projects}
            readOnly={readOnlyNote !== null}
            onRenamed={(p) => {
              setProjects((list) => list?.map((q) => (q.id === p.id ? p : q)) ?? null);
              void refresh();
            }}
            onDeleted={(d) => {
              setProjects((list) => list?.filter((q) => q.id !== d.id) ?? null);
              setDeleted(d);
              void refresh();
            }}
          />
        ) : error ? null : (
          <Spinner label="Loading projects" />
        )}
      </section>
    </>
  );
}

/** "Removed /x, its git repository and its 2 sessions (31 files and folders in all)." */
export function deletedSummary(d: DeletedProject): string {
  const sessions = `${d.sessions} session${d.sessions === 1 ? "" : "s"}`;
  return `Removed ${d.rootPath}, its git repository and its ${sessions} (${d.files} files and folders in all).`;
}
