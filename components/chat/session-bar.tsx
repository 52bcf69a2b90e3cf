"use client";

import { type ReactNode, useRef, useState } from "react";
import { describeError, type ModelInfo, type SessionSummary } from "@/components/api-client";
import type { DeletedSession } from "@/components/projects/lifecycle-client";
import { formatDateTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { RunIndicator } from "./run-indicator";
import type { LiveRun } from "./run-label";
import { SessionActions } from "./session-actions";
import { importSessionFile, type JsonlDiagnostic, sessionExportUrl } from "./session-tree-client";

/** How a session is named everywhere in the IDE: its title, else `Session <when it was created>`. */
export function sessionLabel(s: Pick<SessionSummary, "title" | "createdAt">): string {
  return s.title?.trim() || `Session ${formatDateTime(s.createdAt)}`;
}

/** What the last import reported: the file, the new session, its line-numbered diagnostics or an error. */
type ImportOutcome =
  | { kind: "done"; fileName: string; session: SessionSummary; diagnostics: JsonlDiagnostic[] }
  | { kind: "error"; fileName: string; message: string };

/**
 * Session picker, "New session", the model selector, and the session file controls: "Export" downloads
 * the session as a pi JSONL file, "Import session" uploads one as a new session of the project (its
 * parse diagnostics are listed afterwards) and selects it.
 */
export function SessionBar({
  sessions,
  sessionId,
  onSelectSession,
  onNewSession,
  models,
  model,
  onSelectModel,
  busy,
  live = null,
  liveRun = null,
  readOnly = false,
  projectId,
  onImported,
  onSessionRenamed,
  onSessionDeleted,
  children,
  onOpenTree,
}: {
  sessions: SessionSummary[];
  sessionId: string | null;
  onSelectSession: (id: string) => void;
  onNewSession: () => void;
  models: ModelInfo[];
  model: string;
  onSelectModel: (id: string) => void;
  busy: boolean;
  /** A run of the session is live: started in this tab (`here`) or followed (`remote`); null when none. */
  live?: "here" | "remote" | null;
  /** What the live run is (its kind and mode: the indicator's label); null: an agent run. */
  liveRun?: LiveRun | null;
  /** The caller can only read sessions: no "⋯" menu, New session or Import session, no model switch. */
  readOnly?: boolean;
  /** Project the imports go to; default the project of the listed sessions. */
  projectId?: string;
  /** Called after an import (e.g. to refresh the session list); the bar selects the new session itself. */
  onImported?: (session: SessionSummary) => void;
  /** Called after the current session was renamed (its new title) from the "⋯" menu. */
  onSessionRenamed?: (session: SessionSummary) => void;
  /** Called after the current session was deleted from the "⋯" menu: select another one or none. */
  onSessionDeleted?: (deleted: DeletedSession) => void;
  /** More buttons of the bar (e.g. "Session changes"), after Export and Import. */
  children?: ReactNode;
  /** Opens the session tree (pi's /tree); no "Tree" button without it. */
  onOpenTree?: () => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);
  /** Percentage of a large file sent so far (imports in parts), or null. */
  const [sent, setSent] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  // Imported sessions the parent's list does not show yet.
  const [extra, setExtra] = useState<SessionSummary[]>([]);
  const target = projectId ?? sessions[0]?.projectId ?? extra[0]?.projectId;
  const listed = [...extra.filter((e) => !sessions.some((s) => s.id === e.id)), ...sessions];
  const current = listed.find((s) => s.id === sessionId);
  // The last session was deleted here: say how to go on (not while the list is still loading).
  const [emptied, setEmptied] = useState(false);

  const onFile = async (file: File | undefined) => {
    if (!file || !target) return;
    setImporting(true);
    setOutcome(null);
    try {
      const { session, diagnostics } = await importSessionFile(target, file, (p) =>
        setSent(Math.floor((p.loaded / p.total) * 100)),
      );
      setExtra((prev) => [session, ...prev.filter((p) => p.id !== session.id)]);
      setOutcome({ kind: "done", fileName: file.name, session, diagnostics });
      onSelectSession(session.id);
      onImported?.(session);
    } catch (err) {
      setOutcome({ kind: "error", fileName: file.name, message: describeError(err) });
    } finally {
      setImporting(false);
      setSent(null);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  return (
    <>
      <div className="session-bar">
        <select
          aria-label="Session"
          title={current ? sessionLabel(current) : undefined}
          value={sessionId ?? ""}
          disabled={busy || listed.length === 0}
          onChange={(e) => onSelectSession(e.target.value)}
        >
          {sessionId === null ? <option value="">No session</option> : null}
          {listed.map((s) => (
            <option key={s.id} value={s.id}>
              {sessionLabel(s)}
            </option>
          ))}
        </select>
        {live ? <RunIndicator live={live} run={liveRun} /> : null}
        {current && !readOnly ? (
          <SessionActions
            session={current}
            label={sessionLabel(current)}
            disabled={busy}
            onRenamed={(s) => {
              setExtra((prev) => prev.map((e) => (e.id === s.id ? { ...e, title: s.title } : e)));
              onSessionRenamed?.(s);
            }}
            onDeleted={(d) => {
              setExtra((prev) => prev.filter((e) => e.id !== d.id));
              setEmptied(listed.every((s) => s.id === d.id));
              onSessionDeleted?.(d);
            }}
          />
        ) : null}
        {onOpenTree ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={onOpenTree}
            disabled={!sessionId}
            title="The session's tree: every branch, move, fork, label (Alt+T)"
            aria-keyshortcuts="Alt+T"
          >
            Tree
          </button>
        ) : null}
        {readOnly ? null : (
          <button type="button" className="btn btn-small" onClick={onNewSession} disabled={busy}>
            New session
          </button>
        )}
        {sessionId ? (
          <a
            className="btn btn-small"
            href={sessionExportUrl(sessionId)}
            download
            aria-label="Export session as pi JSONL"
            title="Download this session as a pi JSONL file"
          >
            Export
          </a>
        ) : (
          <button type="button" className="btn btn-small" disabled aria-label="Export session as pi JSONL">
            Export
          </button>
        )}
        {readOnly ? null : (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => fileInput.current?.click()}
            disabled={busy || importing || !target}
            aria-busy={importing}
            title="Import a pi session file (.jsonl) as a new session"
          >
            {importing ? `Importing…${sent !== null && sent < 100 ? ` ${sent}%` : ""}` : "Import session"}
          </button>
        )}
        <input
          ref={fileInput}
          type="file"
          accept=".jsonl,application/x-ndjson,application/jsonl"
          aria-label="Import session file"
          hidden
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
        {children}
        <select
          aria-label="Model"
          value={model}
          disabled={models.length === 0 || readOnly}
          onChange={(e) => onSelectModel(e.target.value)}
        >
          {models.length === 0 ? <option value="">No models configured</option> : null}
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name || m.id}
            </option>
          ))}
        </select>
      </div>
      {emptied && sessionId === null && listed.length === 0 && !readOnly ? (
        <Notice kind="info">This project has no sessions. “New session” starts one.</Notice>
      ) : null}
      {outcome ? <ImportReport outcome={outcome} onDismiss={() => setOutcome(null)} /> : null}
    </>
  );
}

function ImportReport({ outcome, onDismiss }: { outcome: ImportOutcome; onDismiss: () => void }) {
  const dismiss = (
    <button type="button" className="btn btn-small" onClick={onDismiss}>
      Dismiss
    </button>
  );
  if (outcome.kind === "error")
    return (
      <Notice kind="error" title={`Could not import ${outcome.fileName}`} actions={dismiss}>
        {outcome.message}
      </Notice>
    );
  const { diagnostics } = outcome;
  const title = `Imported ${outcome.fileName} as “${sessionLabel(outcome.session)}”`;
  return (
    <Notice kind={diagnostics.length > 0 ? "warning" : "info"} title={title} actions={dismiss}>
      {diagnostics.length === 0 ? (
        <span> No problems found.</span>
      ) : (
        <ul className="import-diagnostics" aria-label="Import diagnostics">
          {diagnostics.map((d, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a line can have several diagnostics of one kind
            <li key={`${d.line}:${d.kind}:${i}`}>{d.message}</li>
          ))}
        </ul>
      )}
    </Notice>
  );
}
