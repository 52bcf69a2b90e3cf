"use client";

import Link from "next/link";
import { useId, useState } from "react";
import type { ResourceKind, ResourceProvenance, SessionResourcesResponse } from "@/components/api-client";
import { Notice } from "@/components/ui/notice";
import { PanelToggle } from "@/components/ui/panel-toggle";
import styles from "./context-panel.module.css";
import { timeAgo } from "./time-ago";

const SCOPE_LABEL: Record<ResourceProvenance["scope"], string> = {
  team: "Team",
  project: "Project",
  personal: "Personal",
};

const GROUPS: { kind: ResourceKind; title: string }[] = [
  { kind: "context", title: "Context files" },
  { kind: "system", title: "System prompt" },
  { kind: "append", title: "Appended system prompt" },
  { kind: "skill", title: "Skills" },
  { kind: "template", title: "Prompt templates" },
];

/**
 * The resources in effect for the session, grouped by kind: each with its scope (Team / Project / Personal), its
 * path, who last changed it and when, and a trust-gated marker; diagnostics and resources withheld for lack of
 * trust are always shown, even when the panel is collapsed (as counts), and so is the preview of a team rules
 * proposal (a banner with Stop preview).
 */
export function ContextPanel({
  data,
  error,
  onChangeTrust,
  onStopPreview,
}: {
  data: SessionResourcesResponse | null;
  error: string | null;
  /** Opens the trust prompt; absent: no "Change trust…" (a caller who can only read). */
  onChangeTrust?: () => void;
  /** Ends the session's preview of a team rules proposal. */
  onStopPreview?: () => Promise<void> | void;
}) {
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const diagnostics = data?.diagnostics ?? [];
  const withheld = data && !data.trust.trusted ? data.trust.withheld : [];
  const [stopping, setStopping] = useState(false);
  const now = Date.now();
  return (
    <section className="context-panel" aria-label="Context">
      <div className="context-header">
        <PanelToggle label="Context" open={open} controls={bodyId} onToggle={() => setOpen((o) => !o)} />
        {data ? <span className="muted">{data.provenance.length} in effect</span> : null}
        {diagnostics.length > 0 ? (
          <span className="badge badge-warn">
            {diagnostics.length} diagnostic{diagnostics.length === 1 ? "" : "s"}
          </span>
        ) : null}
        {withheld.length > 0 ? (
          <span className="badge badge-warn">untrusted: {withheld.length} not loaded</span>
        ) : null}
      </div>
      {data?.preview ? (
        <div className={styles.preview} role="status">
          <span>
            Previewing proposal “{data.preview.title}” — not merged. Its team rules stand in for the team's in
            this session only.
          </span>
          {onStopPreview ? (
            <button
              type="button"
              className="btn btn-small"
              disabled={stopping}
              onClick={() => {
                setStopping(true);
                void Promise.resolve(onStopPreview()).finally(() => setStopping(false));
              }}
            >
              {stopping ? "Stopping…" : "Stop preview"}
            </button>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <Notice kind="error" title="Could not load the session's resources">
          {error}
        </Notice>
      ) : null}
      {open && data ? (
        <div id={bodyId} className="context-body">
          <p className="context-trust">
            {data.trust.trusted ? "Project trusted" : "Project not trusted"}
            {data.trust.sessionOverride !== null ? " (this session only)" : ""}
            <span className="muted mono"> {data.trust.cwd}</span>{" "}
            {onChangeTrust ? (
              <button type="button" className="btn btn-small" onClick={onChangeTrust}>
                Change trust…
              </button>
            ) : null}
          </p>
          {withheld.length > 0 ? (
            <Notice kind="warning" title="Not loaded: the project is not trusted">
              <ul className="mono">
                {withheld.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </Notice>
          ) : null}
          {diagnostics.length > 0 ? (
            <Notice
              kind={diagnostics.some((d) => d.type === "error") ? "error" : "warning"}
              title="Resource diagnostics"
            >
              <ul className="diagnostics">
                {diagnostics.map((d, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: diagnostics have no identity and never reorder
                  <li key={i}>
                    <strong>{d.type}</strong>: {d.message}
                    {d.path ? <span className="mono"> ({d.path})</span> : null}
                  </li>
                ))}
              </ul>
            </Notice>
          ) : null}
          {GROUPS.map((g) => (
            <ResourceGroup
              key={g.kind}
              title={g.title}
              items={data.provenance.filter((p) => p.kind === g.kind)}
              now={now}
            />
          ))}
          <p className="muted">
            Your agent dir (<span className="mono">~/.pi/agent</span>): <Link href="/agent">edit</Link>
          </p>
        </div>
      ) : null}
    </section>
  );
}

function ResourceGroup({ title, items, now }: { title: string; items: ResourceProvenance[]; now: number }) {
  return (
    <section className="resource-group" aria-label={title}>
      <h3>{title}</h3>
      {items.length === 0 ? (
        <p className="muted">None</p>
      ) : (
        <ul>
          {items.map((p) => (
            <li key={`${p.filesystem}:${p.path}`} className="resource-item">
              <span className={`badge ${styles.scope} ${styles[p.scope]}`}>{SCOPE_LABEL[p.scope]}</span>
              {p.name ? <strong>{p.name}</strong> : null}
              <span className="mono resource-path" title={p.path}>
                {p.path}
              </span>
              {p.trustGated ? <span className="badge badge-warn">trust-gated</span> : null}
              <span className={`muted ${styles.changed}`} title={p.lastChangedAt ?? undefined}>
                changed by {p.lastChangedBy}
                {p.lastChangedAt ? ` · ${timeAgo(p.lastChangedAt, now)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
