"use client";

import { useCallback, useEffect, useState } from "react";
import { describeError, listProjects, type Project } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import { Spinner } from "@/components/ui/spinner";
import { ImportForm } from "./import-form";
import { ProjectList } from "./project-list";

/** The projects page body: the import form and the list of projects (GET /api/projects). */
export function ProjectsHome() {
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = useCallback(async (signal?: AbortSignal) => {
    try {
      const list = await listProjects(signal);
      setProjects(list);
      setError(null);
    } catch (err) {
      if (!signal?.aborted) setError(describeError(err));
    }
  }, []);

  useEffect(() => {
    const ctrl = new AbortController();
    void refresh(ctrl.signal);
    return () => ctrl.abort();
  }, [refresh]);

  return (
    <>
      <section className="card" aria-labelledby="import-heading">
        <h2 id="import-heading">Import a project</h2>
        <ImportForm onImported={() => void refresh()} />
      </section>
      <section className="card" aria-labelledby="projects-heading">
        <h2 id="projects-heading">Projects</h2>
        {error ? (
          <Notice kind="error" title="Could not load projects">
            {error}
          </Notice>
        ) : null}
        {projects ? <ProjectList projects={projects} /> : error ? null : <Spinner label="Loading projects" />}
      </section>
    </>
  );
}
