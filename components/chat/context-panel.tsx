"use client";

import Link from "next/link";
import { useId, useState } from "react";
import type {
  ResourceDiagnostic,
  ResourceKind,
  ResourceProvenance,
  SessionResourcesResponse,
} from "@/components/api-client";
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
 * proposal (a banner with Stop preview). A context file cut to its size cap shows "truncated", its loaded and total
 * bytes and the marker line the prompt ends it with; a file loaded once for two paths (a symlink) names the other
 * path. `info` diagnostics (duplicates) are not counted as problems; one that matches no listed file is shown as a note.
 */
export function ContextPanel({
  data,
  error,
  onChangeTrust,
  onStopPreview,
  initiallyOpen = false,
}: {
  data: SessionResourcesResponse | null;
  error: string | null;
  /** Opens the trust prompt; absent: no "Change trust…" (a caller who can only read). */
  onChangeTrust?: () => void;
  /** Ends the session's preview of a team rules proposal. */
  onStopPreview?: () => Promise<void> | void;
  /** Start expanded (default: collapsed, the header alone). */
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const bodyId = useId();
  const all = data?.diagnostics ?? [];
  const diagnostics = all.filter((d) => d.type !== "info");
  const contextPaths = new Set(data?.provenance.filter((p) => p.kind === "context").map((p) => p.path));
  const notes = all.filter((d) => d.type === "info" && !(d.duplicateOf && contextPaths.has(d.duplicateOf)));
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
          {notes.length > 0 ? (
            <ul className={`diagnostics ${styles.notes}`} aria-label="Resource notes">
              {notes.map((d, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: diagnostics have no identity and never reorder
                <li key={i} className="muted">
                  {d.message}
                </li>
              ))}
            </ul>
          ) : null}
          {GROUPS.map((g) => (
            <ResourceGroup
              key={g.kind}
              title={g.title}
              items={data.provenance.filter((p) => p.kind === g.kind)}
              diagnostics={g.kind === "context" ? all : []}
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

function ResourceGroup({
  title,
  items,
  diagnostics,
  now,
}: {
  title: string;
  items: ResourceProvenance[];
  /** Diagnostics to show on the matching items (truncated files, duplicates loaded once). */
  diagnostics: ResourceDiagnostic[];
  now: number;
}) {
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
              <FileNotes path={p.path} diagnostics={diagnostics} />
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

/**
 * What rule loading did to one context file (`path`, among `diagnostics`): cut to its cap ("truncated", "N of M bytes
 * loaded", "Ends with: <marker>"), or loaded once for two paths ("Same file as X (real path Y); loaded once").
 */
export function FileNotes({ path, diagnostics }: { path: string; diagnostics: ResourceDiagnostic[] }) {
  const truncated = diagnostics.find((d) => d.code === "truncated" && d.path === path);
  const duplicates = diagnostics.filter((d) => d.code === "duplicate" && d.duplicateOf === path);
  return (
    <>
      {truncated ? (
        <>
          <span className="badge badge-warn">truncated</span>
          <span className={styles.note}>
            {truncated.loadedBytes} of {truncated.sizeBytes} bytes loaded
          </span>
          {truncated.marker ? (
            <span className={styles.note}>
              Ends with: <code className={`mono ${styles.marker}`}>{truncated.marker}</code>
            </span>
          ) : null}
        </>
      ) : null}
      {duplicates.map((d) => (
        <span key={d.path} className={styles.note}>
          Same file as <span className="mono">{d.path}</span> (real path{" "}
          <span className="mono">{d.canonical}</span>
          ); loaded once
        </span>
      ))}
    </>
  );
}
