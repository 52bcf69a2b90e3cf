"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { describeError, getSession } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import { ContextInspector } from "./inspector";
import styles from "./inspector.module.css";

/**
 * The inspector's full page (`/projects/:id/sessions/:sessionId/inspect`): a header back to the IDE, then the
 * inspector with its six layers as columns on wide screens. The session's own model is previewed first
 * (`GET /api/sessions/:id`); "Refresh" asks again after the session grew in another tab.
 */
export function InspectorPage({
  projectId,
  sessionId,
  projectName,
  sessionTitle,
}: {
  projectId: string;
  sessionId: string;
  projectName: string;
  sessionTitle: string | null;
}) {
  const [sessionModel, setSessionModel] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  useEffect(() => {
    const ctrl = new AbortController();
    getSession(sessionId, ctrl.signal).then(
      (s) => setSessionModel(s.session.model),
      (err) => {
        if (ctrl.signal.aborted) return;
        setError(describeError(err));
        setSessionModel(null);
      },
    );
    return () => ctrl.abort();
  }, [sessionId]);
  return (
    <div className="inspect-page">
      <header className={`workspace-header ${styles.pageHeader}`}>
        <Link href="/" className="brand">
          Strata
        </Link>
        <span className="sep">/</span>
        <Link href={`/projects/${encodeURIComponent(projectId)}`}>{projectName}</Link>
        <span className="sep">/</span>
        <h1 className="project-name">Inspector: {sessionTitle ?? "untitled session"}</h1>
        <button
          type="button"
          className="btn btn-small"
          style={{ marginLeft: "auto" }}
          onClick={() => setRefresh((n) => n + 1)}
        >
          Refresh
        </button>
      </header>
      {error ? (
        <Notice kind="error" title="Could not read the session">
          {error}. The inspector previews the server's default model instead; reload to try again.
        </Notice>
      ) : null}
      {sessionModel !== undefined ? (
        <ContextInspector
          projectId={projectId}
          sessionId={sessionId}
          chatModel={sessionModel}
          layout="page"
          refreshKey={refresh}
        />
      ) : null}
    </div>
  );
}
