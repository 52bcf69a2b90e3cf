"use client";

import { useId, useState } from "react";
import { PanelToggle } from "@/components/ui/panel-toggle";
import { ContextInspector } from "./inspector";

/**
 * The inspector's entry point in the chat pane: a collapsed "Inspector" row (like Context and History) that opens
 * the context inspector of the open session in tabs, with a link to its full page for wide screens. Nothing is
 * fetched while it is closed.
 */
export function InspectorPanel({
  projectId,
  sessionId,
  chatModel,
  refreshKey,
}: {
  projectId: string;
  sessionId: string | null;
  /** The chat's model (`provider/id`), previewed until another is picked in the inspector. */
  chatModel: string | null;
  /** Changes when the conversation changed (a run ended, the branch moved). */
  refreshKey: string;
}) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const href = sessionId
    ? `/projects/${encodeURIComponent(projectId)}/sessions/${encodeURIComponent(sessionId)}/inspect`
    : undefined;
  return (
    <section className="context-panel" aria-label="Inspector">
      <div className="context-header">
        <PanelToggle label="Inspector" open={open} controls={bodyId} onToggle={() => setOpen((o) => !o)} />
        <span className="muted">what the next request sends</span>
        {href ? (
          <a href={href} className="header-link" style={{ marginLeft: "auto" }}>
            Full page ↗
          </a>
        ) : null}
      </div>
      {open ? (
        <div id={bodyId}>
          <ContextInspector
            projectId={projectId}
            sessionId={sessionId}
            chatModel={chatModel}
            layout="panel"
            refreshKey={refreshKey}
          />
        </div>
      ) : null}
    </section>
  );
}
